import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An OPML document read back for a test: whether it parses, its version, every outline's
/// `xmlUrl` in document order.
public struct OPMLOutlines {
  public var wellFormed: Bool
  public var version: String?
  public var urls: [String]

  public init(_ data: Data) {
    let parser = XMLParser(data: data)
    let collector = Collector()
    parser.delegate = collector
    // FoundationXML on Linux returns true from `parse()` even after a fatal error.
    wellFormed = parser.parse() && parser.parserError == nil
    version = collector.version
    urls = collector.urls
  }

  private final class Collector: NSObject, XMLParserDelegate {
    var urls: [String] = []
    var version: String?

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String]
    ) {
      if elementName == "opml" { version = attributes["version"] }
      if elementName == "outline", let url = attributes["xmlUrl"] { urls.append(url) }
    }
  }
}
