/// Why a request header was refused: a CR, LF or NUL byte in a header would end the header
/// line early and let what follows be read as another header, or as another request on the
/// same connection (request smuggling). Such a request is never sent.
public struct RequestHeaderError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The header, as named to the user (`User-Agent`, or the name of a per-source header).
  public var header: String
  /// The byte that was refused: 0x0D (CR), 0x0A (LF) or 0x00 (NUL); or nil when the name is
  /// not a valid field name.
  public var byte: UInt8?

  /// An error for `header`, naming the byte refused.
  public init(header: String, byte: UInt8?) {
    self.header = header
    self.byte = byte
  }

  /// A sentence for a person.
  public var description: String {
    guard let byte else {
      return "header name \"\(header)\" is not a valid field name (RFC 9110 token characters)"
    }
    let name = [0x0D: "a carriage return (CR)", 0x0A: "a line feed (LF)", 0x00: "a NUL byte"]
    return "the \(header) header contains \(name[Int(byte)] ?? "a control byte"), which would "
      + "end the header line; it is never sent"
  }
}

/// The byte-level checks on what goes into request headers.
///
/// Bytes, not `Character`s: in Swift `"\r\n"` is one `Character`, so a guard that looks for
/// the characters `"\r"` or `"\n"` lets CRLF through.
public enum RequestHeaderCheck {
  /// The first CR, LF or NUL byte in `text`, or nil when it has none.
  public static func forbiddenByte(in text: String) -> UInt8? {
    let found = text.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.first { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
    if let found { return found }
    return text.utf8.first { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
  }

  /// Throws when `value` (the value of header `header`) holds a CR, LF or NUL byte.
  public static func checkValue(_ value: String, of header: String) throws(RequestHeaderError) {
    if let byte = forbiddenByte(in: value) { throw RequestHeaderError(header: header, byte: byte) }
  }

  /// Throws when `name` is not an RFC 9110 token (letters, digits and ``!#$%&'*+-.^_`|~``):
  /// a colon or a space in a name would change where the value starts.
  public static func checkName(_ name: String) throws(RequestHeaderError) {
    if let byte = forbiddenByte(in: name) { throw RequestHeaderError(header: name, byte: byte) }
    let symbols = Array("!#$%&'*+-.^_`|~".utf8)
    let isToken =
      !name.isEmpty
      && name.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || symbols.contains(byte)
      }
    if !isToken { throw RequestHeaderError(header: name, byte: nil) }
  }

  /// Throws for the first header of `request` that could not be sent safely: the user agent and
  /// the extra headers. (The validators come from an earlier response, that is, from the
  /// server: one that could not be sent is left out and the request goes unconditional.)
  public static func check(_ request: TransferRequest) throws(RequestHeaderError) {
    try checkValue(request.userAgent, of: "User-Agent")
    for header in request.headers {
      try checkName(header.name)
      try checkValue(header.value, of: header.name)
    }
  }
}
