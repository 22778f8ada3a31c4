/// Reads the dates feeds carry, by hand-written byte scanning: Foundation's `DateFormatter` is
/// slow, locale-dependent, and accepts one pattern at a time, while feeds write dozens.
///
/// Two families, each a table of forms: RFC 3339 / W3C-DTF / ISO 8601 (`ISO8601DateForm`) and
/// RFC 822 with its real-world variants and asctime (`RFC822DateForm`). A date whose fields are
/// out of range (month 13, Feb 30) is nil, never rolled over. The few shapes most feeds write
/// are first tried in place (`CommonDateShapes`), which only saves work: the answer is the same.
public enum FeedDateParser {
  /// Seconds since 1970-01-01T00:00:00Z for an RFC 822 or RFC 3339 / W3C-DTF date or a common
  /// variant of either; nil when the text matches no known form.
  public static func parse(_ text: String) -> Int64? {
    CommonDateShapes.seconds(text) ?? parseAnyForm(text)
  }

  /// `parse` without the fast path for common shapes: every form, and the judge the fast path
  /// is tested against.
  static func parseAnyForm(_ text: String) -> Int64? {
    let bytes = normalizedBytes(text)
    guard !bytes.isEmpty, bytes.count <= longestDate else { return nil }
    var fields = ISO8601DateForm.parse(bytes[...]) ?? RFC822DateForm.parse(bytes[...])
    if fields == nil, bytes.contains(where: { $0 >= 0x80 }) {
      fields = LocalizedDateForm.parse(text)
    }
    guard let fields else { return nil }
    return instant(fields)
  }

  /// Longer text, after trimming, is no date.
  static let longestDate = 256

  /// The seconds `fields` name, or nil when a field is out of range.
  static func instant(_ fields: CivilTime.Fields) -> Int64? {
    // A zone can push year 1 or 9999 past RFC 3339's range; such an instant has no output form.
    guard let seconds = fields.secondsSince1970,
      (firstRFC3339Second...lastRFC3339Second).contains(seconds)
    else { return nil }
    return seconds
  }

  /// The UTF-8 of `text` with ASCII letters in lower case and surrounding white space gone.
  static func normalizedBytes(_ text: String) -> [UInt8] {
    var bytes = Array(text.utf8)
    for index in bytes.indices where bytes[index] &- 0x41 < 26 { bytes[index] |= 0x20 }
    return Array(bytes[bytes.xmlSpaceTrimmedRange])
  }

  /// The instant as RFC 3339 in UTC: `2011-10-19T01:35:15Z`. RFC 3339 years run from 0001 to
  /// 9999 (four digits); an instant outside that range, which `parse` never returns, is clamped
  /// to its ends rather than trapping on overflow.
  public static func rfc3339(_ secondsSince1970: Int64) -> String {
    RFC3339Text.utc(clampedToRFC3339(secondsSince1970))
  }

  /// Seconds since 1970 for an RFC 3339 date-time and nothing looser: `2025-11-01T18:30:00Z`,
  /// with any offset (`+09:00`) and a fraction of a second, which is dropped. A date alone, a
  /// time without seconds or zone, a space for the `T` and every other form `parse` reads are
  /// nil: what a state export writes, and what its import accepts.
  package static func rfc3339Seconds(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { bytes -> Int64? in
      func digits(_ range: Range<Int>) -> Bool {
        range.allSatisfy { bytes[$0] &- UInt8(ascii: "0") < 10 }
      }
      guard bytes.count >= 20, bytes.count <= longestDate, digits(0..<4), bytes[4] == 0x2D,
        digits(5..<7), bytes[7] == 0x2D, digits(8..<10), bytes[10] | 0x20 == 0x74,
        digits(11..<13), bytes[13] == 0x3A, digits(14..<16), bytes[16] == 0x3A, digits(17..<19)
      else { return nil }
      var index = 19
      if bytes[index] == 0x2E {
        index += 1
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        guard index > start else { return nil }
      }
      let zone = bytes.count - index
      guard
        (zone == 1 && bytes[index] | 0x20 == 0x7A)
          || (zone == 6 && (bytes[index] == 0x2B || bytes[index] == 0x2D)
            && digits(index + 1..<index + 3) && bytes[index + 3] == 0x3A
            && digits(index + 4..<index + 6))
      else { return nil }
      return CommonDateShapes.seconds(in: bytes)
    }
  }

  /// Writes `rfc3339(secondsSince1970)`, `rfc3339Length` bytes, to `out`.
  package static func writeRFC3339(_ secondsSince1970: Int64, to out: UnsafeMutablePointer<UInt8>) {
    RFC3339Text.write(clampedToRFC3339(secondsSince1970), to: out)
  }

  private static func clampedToRFC3339(_ seconds: Int64) -> Int64 {
    min(max(seconds, firstRFC3339Second), lastRFC3339Second)
  }

  package static var rfc3339Length: Int { RFC3339Text.length }

  /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
  static let firstRFC3339Second: Int64 = -62_135_596_800
  static let lastRFC3339Second: Int64 = 253_402_300_799
}
