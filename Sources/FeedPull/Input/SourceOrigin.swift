/// Where a SOURCE's bytes come from, decided from the text alone (no file system access), as
/// docs/format.md defines a SOURCE.
enum SourceOrigin: Equatable {
  case http(url: String)
  case file(path: String)
  case standardInput
  /// A URL of a scheme feedpull does not pull (`ftp:`, `gopher:`): fails as `protocol`.
  case unsupported(scheme: String)

  init(_ source: String) {
    if source == "-" {
      self = .standardInput
      return
    }
    guard let scheme = SourceOrigin.scheme(of: source) else {
      self = .file(path: source)
      return
    }
    switch scheme {
    case "http", "https": self = .http(url: source)
    case "file": self = SourceOrigin.fileURL(source)
    default: self = .unsupported(scheme: scheme)
    }
  }

  /// The lower-cased scheme of `scheme://…`, or nil for a path. A colon alone does not make a
  /// URL: `notes:2024.xml` is a file name.
  private static func scheme(of text: String) -> String? {
    guard let colon = text.firstIndex(of: ":"),
      text[colon...].hasPrefix("://")
    else { return nil }
    let scheme = text[..<colon]
    guard let first = scheme.first, first.isASCII, first.isLetter,
      scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
    else { return nil }
    return scheme.lowercased()
  }

  /// `file:///path` or `file://localhost/path`, percent-decoded; another host is unsupported.
  private static func fileURL(_ text: String) -> SourceOrigin {
    var rest = Substring(text.dropFirst("file://".count))
    if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
    guard rest.hasPrefix("/") else { return .unsupported(scheme: "file") }
    if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
    return .file(path: percentDecoded(rest))
  }

  private static func percentDecoded(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    var utf8 = text.utf8[...]
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
