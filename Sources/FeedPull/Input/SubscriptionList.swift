import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The sources of an `-i` file: an OPML subscription list (every `outline` with an `xmlUrl`,
/// at any depth, in document order), or plain text with one source a line and `#` comments.
public enum SubscriptionList {
  /// Why a list could not be read: the file, or its OPML.
  public struct ReadError: Error, CustomStringConvertible {
    /// What went wrong, naming the file.
    public var description: String
  }

  /// The sources listed in the file at `path` (OPML, or one a line).
  public static func read(path: String) throws(ReadError) -> [String] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ReadError(description: "cannot read \(path)")
    }
    return try parse(data, name: path)
  }

  /// The sources listed in `data`; `name` names it in errors.
  public static func parse(_ data: Data, name: String) throws(ReadError) -> [String] {
    let text = String(decoding: data, as: UTF8.self)
    let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
    if start.hasPrefix("<") { return try outlines(data, name: name) }
    return text.split(whereSeparator: \.isNewline).compactMap { line in
      let source = line.trimmingCharacters(in: .whitespaces)
      return source.isEmpty || source.hasPrefix("#") ? nil : source
    }
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
