/// The text of the one field element being read (a title, a summary, a link…). Elements inside
/// it are not fields: they are markup, written into the text as the feed gave them, which is how
/// Atom's inline XHTML and Atom 0.3's `mode="xml"` become text, and how feedparser keeps the
/// unescaped HTML that RSS feeds put in a description.
struct TextCapture {
  /// How the element's content becomes text.
  enum Form {
    /// Character data as is; child elements written as tags.
    case text
    /// XML content (Atom 0.3 `mode="xml"`, an XML media type): text escaped, children written.
    case xml
    /// Atom 1.0 `type="xhtml"` (RFC 4287 section 3.1.1.3): like `xml`, without the wrapping `div`.
    case xhtml
  }

  /// The field the text is for.
  let route: FieldRoute
  /// The core field, or `.unknown` for a namespaced one.
  var element: FeedElement {
    if case .core(let element) = route { return element }
    return .unknown
  }
  /// Depth of the field element (the root is 1).
  let depth: Int
  let form: Form
  /// `text/plain`, `text/html`, `application/xhtml+xml` or the MIME type an Atom element names.
  let type: String?
  /// Atom 0.3 `mode="base64"`.
  let isBase64: Bool
  /// RSS `guid isPermaLink="false"` makes it false.
  let isPermalink: Bool
  /// XML content in Atom 1.0 loses an XHTML `div` wrapper as feedparser does; Atom 0.3's
  /// `mode="xml"` keeps it.
  let unwrapsXHTMLDiv: Bool

  /// Elements written into the text and not yet closed.
  private var openNames: [String] = []
  private var wrapperDivDepth: Int?
  private var wrapperClosed = false
  private var sawElement = false
  /// Where the last start tag ended, to write `<br/>` rather than `<br></br>`.
  private var lastStartTagEnd = -1

  init(
    element: FeedElement, depth: Int, form: Form, type: String?, isBase64: Bool = false,
    isPermalink: Bool = true, unwrapsXHTMLDiv: Bool = false
  ) {
    self.init(
      route: .core(element), depth: depth, form: form, type: type, isBase64: isBase64,
      isPermalink: isPermalink, unwrapsXHTMLDiv: unwrapsXHTMLDiv)
  }

  init(
    route: FieldRoute, depth: Int, form: Form, type: String?, isBase64: Bool = false,
    isPermalink: Bool = true, unwrapsXHTMLDiv: Bool = false
  ) {
    self.unwrapsXHTMLDiv = unwrapsXHTMLDiv
    self.route = route
    self.depth = depth
    self.form = form
    self.type = type
    self.isBase64 = isBase64
    self.isPermalink = isPermalink
  }

  /// Elements written into the text that are still open: part of the retained state.
  var openElementCount: Int { openNames.count }

  /// Character data at `depth` (the current element's depth).
  mutating func characters(
    _ bytes: UnsafeBufferPointer<UInt8>, depth: Int, into buffer: inout [UInt8]
  ) {
    switch form {
    case .text:
      if wrapperClosed && depth == self.depth { return }
      buffer.append(contentsOf: bytes)
    case .xml:
      Self.appendEscaped(bytes, into: &buffer, quote: false)
    case .xhtml:
      if wrapperClosed && depth == self.depth { return }
      Self.appendEscaped(bytes, into: &buffer, quote: false)
    }
  }

  /// A child element starts at `depth`.
  mutating func startElement(
    localname: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?,
    uri: UnsafePointer<UInt8>?, attributes: XMLAttributes, depth: Int,
    into buffer: inout [UInt8]
  ) {
    defer { sawElement = true }
    // A div in the XHTML namespace wraps Atom `type="xhtml"` content, and TypePad wraps
    // `type="html"` content in one too: feedparser unwraps both.
    if form != .xml || unwrapsXHTMLDiv, depth == self.depth + 1, !sawElement,
      bytesEqual(localname, "div"),
      form == .xhtml || uri.map({ bytesEqual($0, "http://www.w3.org/1999/xhtml") }) == true,
      buffer.allSatisfy(\.isXMLSpace)
    {
      buffer.removeAll(keepingCapacity: true)
      wrapperDivDepth = depth
      return
    }
    var name = ""
    if let prefix { name = String(cString: prefix) + ":" }
    name += String(cString: localname)
    buffer.append(UInt8(ascii: "<"))
    buffer.append(contentsOf: name.utf8)
    for attribute in attributes.all() {
      buffer.append(UInt8(ascii: " "))
      buffer.append(contentsOf: attribute.name.utf8)
      buffer.append(contentsOf: "=\"".utf8)
      attribute.value.utf8.withContiguousStorageIfAvailable {
        Self.appendEscaped($0, into: &buffer, quote: true)
      }
      buffer.append(UInt8(ascii: "\""))
    }
    buffer.append(UInt8(ascii: ">"))
    lastStartTagEnd = buffer.count
    openNames.append(name)
  }

  /// The child element at `depth` ends.
  mutating func endElement(depth: Int, into buffer: inout [UInt8]) {
    if depth == wrapperDivDepth {
      wrapperDivDepth = nil
      wrapperClosed = true
      return
    }
    guard let name = openNames.popLast() else { return }
    if buffer.count == lastStartTagEnd {
      buffer.removeLast()
      buffer.append(contentsOf: " />".utf8)
    } else {
      buffer.append(contentsOf: "</".utf8)
      buffer.append(contentsOf: name.utf8)
      buffer.append(UInt8(ascii: ">"))
    }
    lastStartTagEnd = -1
  }

  /// Character data as XML text: `&`, `<`, `>` (and `"` in attribute values) as references.
  static func appendEscaped(
    _ bytes: UnsafeBufferPointer<UInt8>, into buffer: inout [UInt8], quote: Bool
  ) {
    var runStart = 0
    for index in 0..<bytes.count {
      let replacement: StaticString
      switch bytes[index] {
      case UInt8(ascii: "&"): replacement = "&amp;"
      case UInt8(ascii: "<"): replacement = "&lt;"
      case UInt8(ascii: ">"): replacement = "&gt;"
      case UInt8(ascii: "\"") where quote: replacement = "&quot;"
      default: continue
      }
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      buffer.append(
        contentsOf: UnsafeBufferPointer(
          start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
      runStart = index + 1
    }
    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
  }
}
