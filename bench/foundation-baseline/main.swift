// foundation_baseline FILE|-
//
// The peer that a Swift programmer reaches for first: Foundation's XMLParser (FoundationXML on
// Linux, itself on libxml2) streaming from an InputStream, collecting the same item fields as
// `feedpull --format jsonl` and printing one JSON line per item. Dates are passed through as the
// feed gives them (no RFC 3339 conversion): this measures the parser and the delegate calls.
// Build: swiftc -O -o foundation_baseline main.swift
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Which record a mapped element fills, and how.
enum FieldAction {
  case text(String)
  case category
  case creator
  case link
  case enclosure
  case author
}

let atomNS = "http://www.w3.org/2005/Atom"
let rssNamespaces: Set<String> = [
  "", "http://purl.org/rss/1.0/", "http://my.netscape.com/rdf/simple/0.9/",
]
let contentNS = "http://purl.org/rss/1.0/modules/content/"
let dcNS = "http://purl.org/dc/elements/1.1/"

/// (namespace, local name) to the item field it fills, as the C baseline's table.
func itemField(_ ns: String, _ name: String) -> FieldAction? {
  if rssNamespaces.contains(ns) {
    switch name {
    case "title": return .text("title")
    case "link": return .text("link")
    case "description": return .text("summary")
    case "guid": return .text("id")
    case "pubDate": return .text("published")
    case "comments": return .text("comments")
    case "category": return .category
    case "author": return .creator
    case "enclosure": return .enclosure
    default: return nil
    }
  }
  switch (ns, name) {
  case (contentNS, "encoded"): return .text("content")
  case (dcNS, "creator"): return .creator
  case (dcNS, "date"): return .text("published")
  case (dcNS, "subject"): return .category
  case (atomNS, "title"): return .text("title")
  case (atomNS, "summary"): return .text("summary")
  case (atomNS, "content"): return .text("content")
  case (atomNS, "id"): return .text("id")
  case (atomNS, "published"): return .text("published")
  case (atomNS, "updated"): return .text("updated")
  case (atomNS, "link"): return .link
  case (atomNS, "category"): return .category
  case (atomNS, "author"): return .author
  default: return nil
  }
}

/// `text` without surrounding ASCII white space. (Foundation's `trimmingCharacters(in:)` goes
/// through NSString and UTF-16 on Linux and took two thirds of the run time in callgrind.)
func trimmed(_ text: String) -> String {
  let bytes = text.utf8
  let isSpace: (UInt8) -> Bool = { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
  guard let first = bytes.firstIndex(where: { !isSpace($0) }),
    let last = bytes.lastIndex(where: { !isSpace($0) })
  else { return "" }
  if first == bytes.startIndex && last == bytes.index(before: bytes.endIndex) { return text }
  return String(text[first...last])
}

/// Appends `text` as a JSON string.
func appendJSON(_ text: String, to out: inout [UInt8]) {
  out.append(UInt8(ascii: "\""))
  if !text.utf8.contains(where: { $0 < 0x20 || $0 == 34 || $0 == 92 }) {
    out.append(contentsOf: text.utf8)
    out.append(UInt8(ascii: "\""))
    return
  }
  for byte in text.utf8 {
    switch byte {
    case UInt8(ascii: "\""): out += [92, 34]
    case UInt8(ascii: "\\"): out += [92, 92]
    case 10: out += [92, 110]
    case 9: out += [92, 116]
    case 13: out += [92, 114]
    case 0..<0x20: out += Array("\\u00\(byte < 16 ? "0" : "")\(String(byte, radix: 16))".utf8)
    default: out.append(byte)
    }
  }
  out.append(UInt8(ascii: "\""))
}

final class FeedDelegate: NSObject, XMLParserDelegate {
  let source: String
  var output: [UInt8] = []
  var depth = 0
  var itemDepth = 0
  var captureDepth = 0
  var authorDepth = 0
  var captureField = ""
  var captureAction: FieldAction?
  var text = ""
  var fields: [String: String] = [:]
  var categories: [String] = []
  var authors: [String] = []
  var links: [String] = []
  var enclosures: [String] = []
  var authorName = ""
  var index = 0

  init(source: String) { self.source = source }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    depth += 1
    let ns = namespaceURI ?? ""
    if captureDepth != 0 { return }
    if itemDepth == 0 {
      if (rssNamespaces.contains(ns) && name == "item") || (ns == atomNS && name == "entry") {
        itemDepth = depth
        fields = [:]
        categories = []
        authors = []
        links = []
        enclosures = []
        if let about = attributes["rdf:about"] { fields["id"] = about }
      }
      return
    }
    if authorDepth != 0 {
      if depth == authorDepth + 1, name == "name" { start(.text("author_name")) }
      return
    }
    guard depth == itemDepth + 1, let action = itemField(ns, name) else { return }
    switch action {
    case .link:
      let rel = attributes["rel"] ?? "alternate"
      let href = attributes["href"] ?? ""
      var link: [UInt8] = Array("{\"href\":".utf8)
      appendJSON(href, to: &link)
      link += Array(",\"rel\":".utf8)
      appendJSON(rel, to: &link)
      links.append(String(decoding: link + [125], as: UTF8.self))
      if rel == "alternate", fields["link"] == nil { fields["link"] = href }
      if rel == "enclosure" { enclosures.append(enclosureJSON(href, attributes["type"])) }
    case .enclosure:
      if let url = attributes["url"] { enclosures.append(enclosureJSON(url, attributes["type"])) }
    case .author:
      authorDepth = depth
      authorName = ""
    case .category where ns == atomNS:
      if let term = attributes["term"] { categories.append(term) }
    default:
      start(action)
    }
  }

  func enclosureJSON(_ url: String, _ type: String?) -> String {
    var out: [UInt8] = Array("{\"url\":".utf8)
    appendJSON(url, to: &out)
    if let type {
      out += Array(",\"type\":".utf8)
      appendJSON(type, to: &out)
    }
    return String(decoding: out + [125], as: UTF8.self)
  }

  func start(_ action: FieldAction) {
    captureDepth = depth
    captureAction = action
    text = ""
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if captureDepth != 0 { text += string }
  }

  func parser(_ parser: XMLParser, foundCDATA block: Data) {
    if captureDepth != 0 { text += String(decoding: block, as: UTF8.self) }
  }

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
  ) {
    defer { depth -= 1 }
    if depth == captureDepth {
      captureDepth = 0
      let value = trimmed(text)
      switch captureAction {
      case .text("author_name"): authorName = value
      case .text(let field): if fields[field] == nil, !value.isEmpty { fields[field] = value }
      case .category: categories.append(value)
      case .creator: authors.append("{\"name\":\(jsonString(value))}")
      default: break
      }
    } else if depth == authorDepth {
      authorDepth = 0
      if !authorName.isEmpty { authors.append("{\"name\":\(jsonString(authorName))}") }
    } else if depth == itemDepth {
      itemDepth = 0
      writeItem()
    }
  }

  func jsonString(_ text: String) -> String {
    var out: [UInt8] = []
    appendJSON(text, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  func writeItem() {
    output += Array("{\"type\":\"item\",\"source\":".utf8)
    appendJSON(source, to: &output)
    output += Array(",\"index\":\(index)".utf8)
    index += 1
    for key in ["id", "title", "link", "summary", "content", "published", "updated", "comments"] {
      if let value = fields[key] {
        output += Array(",\"\(key)\":".utf8)
        appendJSON(value, to: &output)
      }
    }
    if links.isEmpty, let link = fields["link"] {
      links.append("{\"href\":\(jsonString(link)),\"rel\":\"alternate\"}")
    }
    for (key, list) in [("links", links), ("authors", authors), ("enclosures", enclosures)]
    where !list.isEmpty {
      output += Array(",\"\(key)\":[\(list.joined(separator: ","))]".utf8)
    }
    if !categories.isEmpty {
      output += Array(",\"categories\":[\(categories.map(jsonString).joined(separator: ","))]".utf8)
    }
    output += Array("}\n".utf8)
    if output.count >= 64 * 1024 { flush() }
  }

  func flush() {
    output.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
    output.removeAll(keepingCapacity: true)
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
  FileHandle.standardError.write("usage: foundation_baseline FILE|-\n".data(using: .utf8)!)
  exit(2)
}
let path = arguments[1] == "-" ? "/dev/stdin" : arguments[1]
guard let stream = InputStream(fileAtPath: path) else {
  FileHandle.standardError.write("foundation_baseline: cannot open \(path)\n".data(using: .utf8)!)
  exit(1)
}
let parser = XMLParser(stream: stream)
parser.shouldProcessNamespaces = true
let delegate = FeedDelegate(source: arguments[1])
parser.delegate = delegate
let ok = parser.parse()
delegate.output += Array(
  "{\"type\":\"end\",\"source\":\(delegate.jsonString(arguments[1])),\"ok\":\(ok),\"items\":\(delegate.index)}\n"
    .utf8)
delegate.flush()
exit(ok ? 0 : 1)
