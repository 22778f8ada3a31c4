/// Tells whether bytes are valid in an encoding, so that an HTTP `charset` and an XML
/// declaration that disagree can be settled by the bytes (docs/format.md, "Encodings") instead
/// of decoding one of them into mojibake. It judges with the very code that later converts the
/// document (`UTF8Repair`'s scan for UTF-8, `IconvTranscoder` for the rest), so "valid" here
/// means "converts without a U+FFFD" there.
enum CharsetValidator {
  /// True when `bytes` decode in `encoding` without an invalid sequence; an incomplete sequence
  /// at the very end (the prefix was cut there) counts as valid. Nil when neither iconv nor a
  /// table (`SingleByteCharsets`) knows the encoding.
  static func isValid(_ bytes: ArraySlice<UInt8>, in encoding: String) -> Bool? {
    if encoding == "utf-8" {
      return bytes.withUnsafeBytes { UTF8Repair.isValidEncoding($0) }
    }
    // Every byte of a table's encoding is a character.
    if SingleByteCharsets.upperHalf(for: encoding) != nil { return true }
    guard let transcoder = IconvTranscoder(from: encoding) else { return nil }
    bytes.withUnsafeBytes { transcoder.process($0) { _ in } }
    return !transcoder.repaired
  }
}
