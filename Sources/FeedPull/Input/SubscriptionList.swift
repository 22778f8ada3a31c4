import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// The sources of an `-i` file: an OPML subscription list (every `outline` with an `xmlUrl`,
/// at any depth, in document order), or plain text with one source a line: its first field, so
/// that a `# comment` after it and newsboat's `urls` file (tags and a `"~title"` after the URL)
/// read as they are meant; blank lines and lines starting with `#` are skipped.
public enum SubscriptionList {
  /// Why a list could not be read: the file, or its OPML.
  public struct ReadError: Error, CustomStringConvertible {
    /// What went wrong, naming the file.
    public var description: String
  }

  /// The sources listed in the file at `path` (OPML, or one a line); `-` is standard input.
  public static func read(path: String) throws(ReadError) -> [String] {
    try parse(try contents(of: path), name: path == "-" ? "standard input" : path)
  }

  /// The file's bytes (`-`: standard input's), or why they cannot be read (`cannot read
  /// list.txt: Permission denied`).
  public static func contents(of path: String) throws(ReadError) -> Data {
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw unreadable(path) }
    defer { if path != "-" { close(descriptor) } }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return data }
      if count < 0 {
        if errno == EINTR { continue }
        throw unreadable(path)
      }
      data.append(contentsOf: buffer[..<count])
    }
  }

  private static func unreadable(_ path: String) -> ReadError {
    let reason = String(cString: strerror(errno))
    return ReadError(description: "cannot read \(path == "-" ? "standard input" : path): \(reason)")
  }

  /// The sources listed in `data`; `name` names it in errors.
  public static func parse(_ data: Data, name: String) throws(ReadError) -> [String] {
    let text = String(decoding: data, as: UTF8.self)
    let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
    if start.hasPrefix("<") { return try outlines(data, name: name) }
    return text.split(whereSeparator: \.isNewline).compactMap(firstField)
  }

  /// A line's source: its first field. Nil for a blank line, a `#` comment, and newsboat's
  /// query and filter feeds (a first field in double quotes, `"query:Unread:unread = \"yes\""`),
  /// which name no URL.
  static func firstField(_ line: Substring) -> String? {
    guard let field = line.split(whereSeparator: \.isWhitespace).first,
      !field.hasPrefix("#"), !field.hasPrefix("\"")
    else { return nil }
    return String(field)
  }

  private static func outlines(_ data: Data, name: String) throws(ReadError) -> [String] {
    let parser = XMLParser(data: data)
    let collector = OutlineCollector()
    parser.delegate = collector
    parser.shouldResolveExternalEntities = false
    // FoundationXML on Linux returns true from `parse()` even after a fatal error.
    guard parser.parse(), parser.parserError == nil, collector.sawOPML else {
      throw ReadError(
        description: "\(name) is not a readable OPML file (line \(parser.lineNumber))")
    }
    return collector.urls
  }
}

private final class OutlineCollector: NSObject, XMLParserDelegate {
  var urls: [String] = []
  var sawOPML = false

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String]
  ) {
    if elementName.lowercased() == "opml" { sawOPML = true }
    guard elementName.lowercased() == "outline" else { return }
    let url = attributes.first { $0.key.lowercased() == "xmlurl" }?.value
    if let url = url?.trimmingCharacters(in: .whitespaces), !url.isEmpty {
      urls.append(url)
    }
  }
}
