/// `%XX` escapes in URLs turned back into their bytes (RFC 3986 §2.1), for the few places that
/// need a URL's part as text: a `file:` URL's path, a password to keep out of messages.
public enum PercentDecoding {
  /// `text` with each `%` and two hex digits replaced by that byte; anything else (a `%` not
  /// followed by two hex digits included) kept as it is. Bytes that are not UTF-8 become U+FFFD.
  public static func decoded<Text: StringProtocol>(_ text: Text) -> String {
    var bytes: [UInt8] = []
    var utf8 = Substring(text).utf8[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
