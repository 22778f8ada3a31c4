import Testing

@testable import FeedParser

/// The validity check that settles a disagreement between the HTTP charset and the declaration
/// uses the converters themselves, so it answers as the conversion will.
@Suite struct CharsetValidatorTests {
  @Test(
    arguments: [
      ([0x61, 0xE6, 0x97, 0xA5], true),  // "a日"
      ([0x61, 0xE6, 0x97], true),  // cut off at the end of the sample: still valid
      ([0xEF, 0xBF, 0xBE, 0x61], true),  // U+FFFE: well-formed UTF-8, though no XML character
      ([0xE0, 0x80, 0x80], false),  // overlong (RFC 3629 section 3)
      ([0xED, 0xA0, 0x80], false),  // a surrogate
      ([0x61, 0xE9, 0x61], false),  // ISO-8859-1 "aéa"
      ([0xC3], true),
    ] as [([UInt8], Bool)])
  func utf8(bytes: [UInt8], valid: Bool) {
    #expect(CharsetValidator.isValid(bytes[...], in: "utf-8") == valid)
  }

  @Test func shiftJISCutOffAtTheEndIsValidAndABadByteIsNot() {
    let japanese: [UInt8] = [0x93, 0xFA, 0x96, 0x7B]  // 日本
    #expect(CharsetValidator.isValid(japanese[...], in: "SHIFT_JIS") == true)
    #expect(CharsetValidator.isValid(japanese.dropLast(), in: "SHIFT_JIS") == true)
    #expect(CharsetValidator.isValid([0x93, 0xFA, 0xFF, 0x41][...], in: "SHIFT_JIS") == false)
    #expect(CharsetValidator.isValid([0x41][...], in: "no-such-encoding") == nil)
  }
}
