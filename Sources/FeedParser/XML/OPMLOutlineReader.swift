import CLibXML2

/// The feed URL (`xmlUrl`) of every `outline` of an OPML subscription list, at any depth and in
/// document order, read as the list's bytes arrive: libxml2's push parser takes a block at a
/// time and each block's URLs are handed on as bytes, so a list of a million subscriptions
/// costs a block of memory. (Foundation's `XMLParser`, used before, needed the whole file in
/// memory and built a dictionary of every element's attributes: 560 MiB and 10 s for a million
/// outlines, 75 MiB for 100,000, more than a whole run over that many sources may use; and it
/// refused any list over about 10 MB, see `push`.)
///
/// Names are OPML's as readers take them: an element `outline` or `opml` and an attribute
/// `xmlUrl`, in any letter case, with no namespace prefix. A URL is trimmed of white space and
/// line breaks at both ends (an attribute that wraps in an editor), and an empty one is left
/// out. The list must be well-formed XML with an `opml` element; a fatal error stops it, with
/// its line.
///
/// Entities: the internal subset's entities are declared and used (in an attribute, through
/// `XMLAttributes`, as the feed parser does, with the same limits), at most `entityBudget`
/// characters in all; an external entity or DTD is never read (no `NOENT`, no `DTDLOAD`, no
/// network), so a list cannot make feedpull read a local file into a URL.
package final class OPMLOutlineReader {
  /// Why a list cannot be read, and where.
  package struct Failure: Error, Sendable {
    /// The line of the first fatal error (or the last line, for a list with no `opml`).
    package var line: Int
  }

  /// Bytes given to libxml2 a call at most.
  static let slice = 1 << 16

  /// Characters of internal entities the list may expand, in all.
  static let entityBudget = 1 << 20

  private let context: xmlParserCtxtPtr
  /// The URLs found during the current push, end to end, and where each ends: handed to the
  /// caller when the push returns, as bytes (no `String` made for a URL that needs no
  /// decoding).
  fileprivate var found: [UInt8] = []
  fileprivate var foundEnds: [Int] = []
  fileprivate var sawOPML = false
  fileprivate var fatalLine: Int?
  fileprivate var entityCharacters = 0

  private static let initializeOnce: Void = { xmlInitParser() }()

  /// A reader for one list; nil when libxml2 cannot make a parser.
  package init?() {
    _ = Self.initializeOnce
    var handler = xmlSAXHandler()
    handler.initialized = UInt32(XML_SAX2_MAGIC)
    handler.startElementNs = opmlStartElement
    handler.serror = opmlError
    handler.getEntity = opmlGetEntity
    handler.getParameterEntity = opmlGetParameterEntity
    handler.entityDecl = opmlEntityDecl
    handler.internalSubset = opmlInternalSubset
    // Filled in below: the callbacks find the reader through the context's user data.
    guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else { return nil }
    self.context = context
    let userData = Unmanaged.passUnretained(self).toOpaque()
    context.pointee.userData = userData
    context.pointee.vctxt.userData = userData
    _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
  }

  deinit {
    if let doc = context.pointee.myDoc {
      xmlFreeDoc(doc)
      context.pointee.myDoc = nil
    }
    xmlFreeParserCtxt(context)
  }

  /// Parses `bytes`, the list's next block, and calls `body` with each URL found in it, in
  /// order.
  package func push(
    _ bytes: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(Failure) {
    // In slices: without `XML_PARSE_HUGE` libxml2 refuses to hold more than 10 MB of input
    // unparsed ("Huge input lookup"), and a chunk is held whole while it is parsed (a list
    // given whole, `SubscriptionList.parse`, failed past its first 16 MB that way, as
    // Foundation's parser failed on any list of that size).
    var rest = bytes
    repeat {
      let count = min(rest.count, Self.slice)
      try parse(UnsafeRawBufferPointer(rebasing: rest.prefix(count)), terminate: false, body)
      rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(count))
    } while !rest.isEmpty
  }

  /// Ends the list: the URLs of its last bytes go to `body`; throws when it was not a
  /// well-formed OPML document.
  package func finish(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) {
    try parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true, body)
    guard sawOPML, context.pointee.wellFormed != 0 else {
      throw Failure(line: fatalLine ?? Int(xmlSAX2GetLineNumber(context)))
    }
  }

  private func parse(
    _ bytes: UnsafeRawBufferPointer, terminate: Bool,
    _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(Failure) {
    let code = xmlParseChunk(
      context, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
      terminate ? 1 : 0)
    if !foundEnds.isEmpty {
      found.withUnsafeBufferPointer { all in
        var start = 0
        for end in foundEnds {
          body(UnsafeBufferPointer(rebasing: all[start..<end]))
          start = end
        }
      }
      found.removeAll(keepingCapacity: true)
      foundEnds.removeAll(keepingCapacity: true)
    }
    if code != 0 || fatalLine != nil {
      throw Failure(line: fatalLine ?? Int(xmlSAX2GetLineNumber(context)))
    }
  }

  fileprivate func startElement(
    _ localname: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
    attributes: XMLAttributes
  ) {
    guard prefix == nil else { return }
    if bytesEqualIgnoringCase(localname, "outline") {
      guard let raw = attributes.rawValueIgnoringCase("xmlUrl") else { return }
      // libxml2 has made every tab and line break of the value a space (XML's normalisation).
      let bytes = UnsafeBufferPointer(rebasing: raw[raw.xmlSpaceTrimmedRange])
      guard let head = bytes.first, let tail = bytes.last else { return }
      // A URL with no reference and ASCII at both ends is kept as it is; others are decoded
      // (a reference may stand for white space, a line break, a non-breaking space) and
      // trimmed as text.
      if head < 0x80, tail < 0x80, !bytes.contains(0x26) {
        found.append(contentsOf: bytes)
      } else {
        let url = attributes.decoded(bytes).trimmingWhitespaceAndNewlines()
        found.append(contentsOf: url.utf8)
      }
      if found.count > (foundEnds.last ?? 0) { foundEnds.append(found.count) }
    } else if bytesEqualIgnoringCase(localname, "opml") {
      sawOPML = true
    }
  }

  /// An internal entity's length is charged to the budget; past it, the entity is not found
  /// (a fatal error: the list is refused).
  fileprivate func admit(_ entity: xmlEntityPtr?, ifOfType type: xmlEntityType) -> xmlEntityPtr? {
    guard let entity else { return nil }
    if entity.pointee.etype == type {
      entityCharacters += Int(entity.pointee.length)
      if entityCharacters > Self.entityBudget { return nil }
    }
    return entity
  }

  fileprivate static func from(_ userData: UnsafeMutableRawPointer) -> OPMLOutlineReader {
    Unmanaged<OPMLOutlineReader>.fromOpaque(userData).takeUnretainedValue()
  }

  fileprivate var parserContext: xmlParserCtxtPtr { context }
}

extension String {
  /// Without white space or line breaks at either end (Unicode's, as `Character` knows them).
  fileprivate func trimmingWhitespaceAndNewlines() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
    let last = lastIndex(where: { !$0.isWhitespace })!
    return first == startIndex && last == index(before: endIndex)
      ? self : String(self[first...last])
  }
}

private func opmlStartElement(
  _ userData: UnsafeMutableRawPointer?, _ localname: UnsafePointer<xmlChar>?,
  _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
  _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ attributeCount: Int32,
  _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
  guard let userData, let localname else { return }
  let reader = OPMLOutlineReader.from(userData)
  reader.startElement(
    localname, prefix: prefix,
    attributes: XMLAttributes(
      base: attributes, count: Int(attributeCount), context: reader.parserContext))
}

private func opmlError(_ userData: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
  guard let userData, let error, error.pointee.level == XML_ERR_FATAL else { return }
  let reader = OPMLOutlineReader.from(userData)
  if reader.fatalLine == nil { reader.fatalLine = Int(error.pointee.line) }
}

private func opmlGetEntity(
  _ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?
) -> xmlEntityPtr? {
  admitted(userData, XML_INTERNAL_GENERAL_ENTITY) { xmlSAX2GetEntity($0, name) }
}

private func opmlGetParameterEntity(
  _ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?
) -> xmlEntityPtr? {
  admitted(userData, XML_INTERNAL_PARAMETER_ENTITY) { xmlSAX2GetParameterEntity($0, name) }
}

/// The entity `lookUp` finds in the reader's context, charged to its budget when internal.
private func admitted(
  _ userData: UnsafeMutableRawPointer?, _ internalType: xmlEntityType,
  _ lookUp: (xmlParserCtxtPtr) -> xmlEntityPtr?
) -> xmlEntityPtr? {
  guard let userData else { return nil }
  let reader = OPMLOutlineReader.from(userData)
  return reader.admit(lookUp(reader.parserContext), ifOfType: internalType)
}

private func opmlEntityDecl(
  _ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ type: Int32,
  _ publicId: UnsafePointer<xmlChar>?, _ systemId: UnsafePointer<xmlChar>?,
  _ content: UnsafeMutablePointer<xmlChar>?
) {
  guard let userData else { return }
  xmlSAX2EntityDecl(
    OPMLOutlineReader.from(userData).parserContext, name, type, publicId, systemId, content)
}

private func opmlInternalSubset(
  _ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?,
  _ externalID: UnsafePointer<xmlChar>?, _ systemID: UnsafePointer<xmlChar>?
) {
  guard let userData else { return }
  let context = OPMLOutlineReader.from(userData).parserContext
  if context.pointee.myDoc == nil { xmlSAX2StartDocument(context) }
  xmlSAX2InternalSubset(context, name, externalID, systemID)
}
