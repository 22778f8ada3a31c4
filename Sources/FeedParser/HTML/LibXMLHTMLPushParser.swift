import CLibXML2

/// What libxml2's HTML parser reports that the head reader needs: start and end tags, with
/// attribute names lower-cased by libxml2 and values with their references decoded.
protocol HTMLTagHandler: AnyObject {
  func startTag(_ name: String, attributes: [(name: String, value: String)])
  func endTag(_ name: String)
}

/// The one door to libxml2's HTML push parser (`htmlCreatePushParserCtxt`/`htmlParseChunk`):
/// it owns the context, forwards start and end tags, and keeps C pointers out of the module.
/// libxml2 opens the elements HTML implies (`html`, `head`, `body`) itself, so a page without a
/// single end tag still reports where its head ends: at the implied `<body>`.
final class LibXMLHTMLPushParser {
  private let context: htmlParserCtxtPtr
  private var handler = htmlSAXHandler()
  private let box: TagHandlerBox

  /// Recover from anything (pages are rarely valid), never touch the network, say nothing on
  /// stderr, and ignore `<meta charset>`: the encoding is decided before the first byte.
  private static let options = Int32(
    HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
      | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_IGNORE_ENC.rawValue)

  private static let initializeOnce: Void = { xmlInitParser() }()

  /// Nil when libxml2 cannot make a context. The bytes pushed are UTF-8: `HTMLHeadReader`
  /// converts every other encoding first (libxml2's own converters give up on a whole chunk at
  /// its first bad byte, so what they read would depend on the chunking).
  init?(handler tagHandler: any HTMLTagHandler) {
    _ = Self.initializeOnce
    box = TagHandlerBox(tagHandler)
    handler.initialized = UInt32(XML_SAX2_MAGIC)
    handler.startElement = htmlStartTag
    handler.endElement = htmlEndTag
    handler.serror = { _, _ in }
    let userData = Unmanaged.passUnretained(box).toOpaque()
    guard
      let context = htmlCreatePushParserCtxt(
        &handler, userData, nil, 0, nil, XML_CHAR_ENCODING_UTF8)
    else { return nil }
    self.context = context
    _ = htmlCtxtUseOptions(context, Self.options)
  }

  deinit {
    if let doc = context.pointee.myDoc {
      xmlFreeDoc(doc)
      context.pointee.myDoc = nil
    }
    htmlFreeParserCtxt(context)
  }

  func push(_ bytes: UnsafeRawBufferPointer, terminate: Bool) {
    let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
    Self.withSilencedGlobalErrors {
      _ = htmlParseChunk(context, base, Int32(bytes.count), terminate ? 1 : 0)
    }
  }

  /// Errors raised without the context (encoding errors) go to a thread-local handler that
  /// prints to stderr by default: silence it for the call, then restore whatever the embedding
  /// program had set.
  private static func withSilencedGlobalErrors(_ body: () -> Void) {
    let savedHandler = __xmlStructuredError().pointee
    let savedContext = __xmlStructuredErrorContext().pointee
    xmlSetStructuredErrorFunc(nil, { _, _ in })
    body()
    xmlSetStructuredErrorFunc(savedContext, savedHandler)
  }

  /// Stops the parse from inside a callback: no more events after this one.
  func stop() {
    xmlStopParser(context)
  }

  /// The context's user data leads here; the handler is not retained by it.
  private final class TagHandlerBox {
    unowned let handler: any HTMLTagHandler
    init(_ handler: any HTMLTagHandler) { self.handler = handler }
  }

  fileprivate static func handler(_ context: UnsafeMutableRawPointer?) -> (any HTMLTagHandler)? {
    guard let context else { return nil }
    return Unmanaged<TagHandlerBox>.fromOpaque(context).takeUnretainedValue().handler
  }
}

@available(*, unavailable)
extension LibXMLHTMLPushParser: Sendable {}

private func htmlStartTag(
  _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?,
  _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
  guard let handler = LibXMLHTMLPushParser.handler(context), let name else { return }
  var pairs: [(name: String, value: String)] = []
  if let attributes {
    var index = 0
    while let attributeName = attributes[index] {
      let value = attributes[index + 1].map { String(cString: $0) } ?? ""
      pairs.append((String(cString: attributeName).lowercased(), value))
      index += 2
    }
  }
  handler.startTag(String(cString: name).lowercased(), attributes: pairs)
}

private func htmlEndTag(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) {
  guard let handler = LibXMLHTMLPushParser.handler(context), let name else { return }
  handler.endTag(String(cString: name).lowercased())
}
