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
  /// A namespaced field read as plain text: its text is the value, with no markup to keep.
  var isNamespacedText: Bool {
    guard case .text = form else { return false }
    if case .core = route { return false }
    return true
  }
  /// Depth of the field element (the root is 1).
  let depth: Int
  let form: Form
  /// `text/plain`, `text/html`, `application/xhtml+xml` or the MIME type an Atom element names.
  let type: TextType?
  /// Atom 0.3 `mode="base64"`.
  let isBase64: Bool
  /// RSS `guid isPermaLink="false"` makes it false.
  let isPermalink: Bool
  /// XML content in Atom 1.0 loses an XHTML `div` wrapper as feedparser does; Atom 0.3's
  /// `mode="xml"` keeps it.
  let unwrapsXHTMLDiv: Bool

  init(
    element: FeedElement, depth: Int, form: Form, type: TextType?, isBase64: Bool = false,
    isPermalink: Bool = true, unwrapsXHTMLDiv: Bool = false
  ) {
    self.init(
      route: .core(element), depth: depth, form: form, type: type, isBase64: isBase64,
      isPermalink: isPermalink, unwrapsXHTMLDiv: unwrapsXHTMLDiv)
  }

  init(
    route: FieldRoute, depth: Int, form: Form, type: TextType?, isBase64: Bool = false,
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

  /// Character data at `depth` (the current element's depth). Mutating only so that the
  /// builder calls it on its capture in place rather than on a copy.
  mutating func characters(
    _ bytes: UnsafeBufferPointer<UInt8>, depth: Int, wrapperClosed: Bool,
    into buffer: inout [UInt8]
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
    markup: inout CapturedMarkup, into buffer: inout [UInt8]
  ) {
    defer { markup.sawElement = true }
    // A div in the XHTML namespace wraps Atom `type="xhtml"` content, and TypePad wraps
    // `type="html"` content in one too: feedparser unwraps both.
    if form != .xml || unwrapsXHTMLDiv, depth == self.depth + 1, !markup.sawElement,
      bytesEqual(localname, "div"),
      form == .xhtml || uri.map({ bytesEqual($0, "http://www.w3.org/1999/xhtml") }) == true,
      buffer.allSatisfy(\.isXMLSpace)
    {
      buffer.removeAll(keepingCapacity: true)
      markup.wrapperDivDepth = depth
      return
    }
    var name = ""
    // SVG and MathML inside XHTML are written as HTML embeds them: unprefixed, the root
    // carrying its namespace (feedparser does the same; the sanitizer keeps them by it).
    let embedded = uri.flatMap(Self.embeddedNamespace)
    if let prefix, embedded == nil { name = String(cString: prefix) + ":" }
    name += String(cString: localname)
    buffer.append(UInt8(ascii: "<"))
    buffer.append(contentsOf: name.utf8)
    if let embedded, name == "svg" || name == "math" {
      buffer.append(contentsOf: " xmlns=\"".utf8)
      buffer.append(contentsOf: embedded.utf8)
      buffer.append(UInt8(ascii: "\""))
    }
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
    markup.lastStartTagEnd = buffer.count
    markup.openNames.append(name)
  }

  /// The SVG or MathML namespace, when `uri` is one of them.
  private static func embeddedNamespace(_ uri: UnsafePointer<UInt8>) -> String? {
    if bytesEqual(uri, "http://www.w3.org/2000/svg") { return "http://www.w3.org/2000/svg" }
    if bytesEqual(uri, "http://www.w3.org/1998/Math/MathML") {
      return "http://www.w3.org/1998/Math/MathML"
    }
    return nil
  }

  /// The child element at `depth` ends.
  mutating func endElement(depth: Int, markup: inout CapturedMarkup, into buffer: inout [UInt8]) {
    if depth == markup.wrapperDivDepth {
      markup.wrapperDivDepth = nil
      markup.wrapperClosed = true
      return
    }
    guard let name = markup.openNames.popLast() else { return }
    if buffer.count == markup.lastStartTagEnd {
      buffer.removeLast()
      buffer.append(contentsOf: " />".utf8)
    } else {
      buffer.append(contentsOf: "</".utf8)
      buffer.append(contentsOf: name.utf8)
      buffer.append(UInt8(ascii: ">"))
    }
    markup.lastStartTagEnd = -1
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

/// What a capture has written of the markup inside its field (the elements still open, an
/// XHTML wrapper `div`): kept apart from `TextCapture`, in one place the builder resets for each
/// capture, so that a capture is a small value to make and drop (a field element each; with
/// its array inside, each capture was destroyed through its type's metadata, a hundred
/// instructions).
struct CapturedMarkup {
  /// Elements written into the text and not yet closed.
  var openNames: [String] = []
  var wrapperDivDepth: Int?
  var wrapperClosed = false
  var sawElement = false
  /// Where the last start tag ended, to write `<br/>` rather than `<br></br>`.
  var lastStartTagEnd = -1

  /// Ready for the next capture (the names' storage kept).
  mutating func reset() {
    if !openNames.isEmpty { openNames.removeAll(keepingCapacity: true) }
    wrapperDivDepth = nil
    wrapperClosed = false
    sawElement = false
    lastStartTagEnd = -1
  }
}
