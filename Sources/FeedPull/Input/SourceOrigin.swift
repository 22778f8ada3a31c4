import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Where a SOURCE's bytes come from, as feedpull defines a SOURCE: `-`, a `scheme://` URL, a
/// `scheme:` URL (`data:`, `mailto:`, `feed:https://…`), or a path. Only a `name:rest` SOURCE
/// whose scheme is none of the well-known ones asks the file system, whether a file of that
/// name exists (`notes:2024.xml` may be one); a well-known scheme is a URL without a look.
enum SourceOrigin: Equatable {
  case http(url: String)
  case file(path: String)
  case standardInput
  /// A URL of a scheme feedpull does not pull (`ftp:`, `gopher:`): fails as `protocol`.
  case unsupported(scheme: String)

  /// - Parameter fileExists: asked only for a `name:rest` SOURCE of an unknown scheme.
  init(_ source: String, fileExists: (String) -> Bool = SourceOrigin.fileExists) {
    if source == "-" {
      self = .standardInput
      return
    }
    // Looked for on the bytes: `firstIndex(of:)` and `hasPrefix` on a `String` walk it as
    // characters (about 4,000 instructions a pull). A colon is ASCII, so its index is a
    // character boundary.
    guard let colon = source.utf8.firstIndex(of: UInt8(ascii: ":")),
      let scheme = SourceOrigin.scheme(source[..<colon])
    else {
      self = .file(path: source)
      return
    }
    let hasAuthority = source.utf8[colon...].starts(with: "://".utf8)
    if !hasAuthority && !SourceOrigin.wellKnownSchemes.contains(scheme) && fileExists(source) {
      self = .file(path: source)
      return
    }
    switch scheme {
    case "http", "https": self = .http(url: source)
    case "file": self = SourceOrigin.fileURL(source)
    case "feed": self = SourceOrigin.feedURL(source[source.index(after: colon)...])
    default: self = .unsupported(scheme: scheme)
    }
  }

  /// Schemes that are URLs whatever the file system holds: no one names a feed file `ftp:x`.
  private static let wellKnownSchemes: Set<String> = [
    "http", "https", "file", "feed", "ftp", "ftps", "sftp", "data", "mailto", "javascript",
    "about", "gopher", "news", "nntp", "ssh", "tel", "ws", "wss", "irc", "ldap", "telnet",
  ]

  /// The lower-cased scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`).
  /// Read on the bytes: every pull starts here, and Unicode's character properties cost a
  /// source more than its whole scheduling.
  private static func scheme(_ text: Substring) -> String? {
    // http and https, almost every source, are answered without making a string.
    if ASCIIWord.equalsIgnoringCase(text.utf8, "http") { return "http" }
    if ASCIIWord.equalsIgnoringCase(text.utf8, "https") { return "https" }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      let lower = byte | 0x20
      let letter = lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
      if bytes.isEmpty ? !letter : !(letter || isSchemeMark(byte)) { return nil }
      bytes.append(letter ? lower : byte)
    }
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }

  /// A digit, `+`, `-` or `.`: the bytes a scheme may hold after its first letter.
  private static func isSchemeMark(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
  }

  /// The old `feed:` scheme (`feed://host/path`, `feed:https://host/path`) that browsers once
  /// handed to feed readers: the URL it wraps, or http for `feed://`.
  private static func feedURL(_ rest: Substring) -> SourceOrigin {
    if rest.hasPrefix("//") { return .http(url: "http:" + rest) }
    let lowered = rest.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
      return .http(url: String(rest))
    }
    return .unsupported(scheme: "feed")
  }

  /// True when something (a file, a directory) exists at `path`.
  static func fileExists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }

  /// `file:///path` or `file://localhost/path`, percent-decoded; another host is unsupported.
  private static func fileURL(_ text: String) -> SourceOrigin {
    var rest = Substring(text.dropFirst("file://".count))
    if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
    guard rest.hasPrefix("/") else { return .unsupported(scheme: "file") }
    if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
    return .file(path: PercentDecoding.decoded(rest))
  }
}

/// A SOURCE that names no file but reads like a web address without its scheme
/// (`example.com/feed`, `localhost:8080/x`): the command refuses it with a suggestion rather
/// than guess (a user who meant a file sees the file is missing, one who meant the web sees the
/// URL to type).
public enum SourceAddressHint {
  /// `https://` + the SOURCE when it looks like a host name (with a dot and a top-level label of
  /// letters, or `localhost`), or a host and port, followed by a path, and names nothing on disk
  /// (neither the file nor its first directory); nil otherwise.
  public static func suggestion(for source: String) -> String? {
    suggestion(for: source, fileExists: SourceOrigin.fileExists)
  }

  /// The same, asking `fileExists` instead of the file system.
  static func suggestion(for source: String, fileExists: (String) -> Bool) -> String? {
    guard !source.hasPrefix("."), !source.hasPrefix("/"), !source.hasPrefix("~"),
      !source.contains("://"), let slash = source.firstIndex(of: "/")
    else { return nil }
    let authority = source[..<slash]
    var host = authority
    if let colon = authority.firstIndex(of: ":") {
      let port = authority[authority.index(after: colon)...]
      guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }) else {
        return nil
      }
      host = authority[..<colon]
    }
    guard looksLikeHostName(host), !fileExists(source), !fileExists(String(authority)) else {
      return nil
    }
    return "https://" + source
  }

  private static func looksLikeHostName(_ host: Substring) -> Bool {
    if host.lowercased() == "localhost" { return true }
    let labels = host.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2, let last = labels.last, last.count >= 2,
      last.allSatisfy({ $0.isASCII && $0.isLetter })
    else { return false }
    return labels.allSatisfy { label in
      !label.isEmpty && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
  }
}
