import CLibXML2

#if canImport(Glibc)
  import Glibc
#endif

/// The one door to libxml2's SAX2 push parser: it owns the parser context, forwards the SAX
/// callbacks to a `FeedDocumentBuilder`, and keeps every C pointer out of the rest of the module.
///
/// Entities, as found by experiment on libxml2 2.9.14 (a C program on the push parser with
/// `<!ENTITY e "E&amp;x">`, an external `SYSTEM` entity, and `&e;` in text and in an attribute;
/// `SafetyTests` and `Tests/Fixtures/entities` keep the results):
/// - Without `XML_PARSE_NOENT` and with a user_data that is not the context, `xmlParseEntityRef`
///   finds a declared entity only through the `getEntity` callback: without one, every `&e;`
///   is "Entity 'e' not defined" (error 26) and yields no text (the built-in fallback to
///   `xmlSAX2GetEntity` runs only when user_data is the context). So we declare entities with
///   `xmlSAX2EntityDecl` into a bare `myDoc` (made by `xmlSAX2StartDocument` when a DOCTYPE
///   appears) and look them up with `xmlSAX2GetEntity`, both called with the real context.
/// - An internal entity's first reference is parsed by `xmlParseBalancedChunkMemoryInternal`,
///   which sends its text through our `characters` callback; since no tree is built,
///   `ent->children` stays NULL and every later reference is parsed again the same way. So each
///   reference yields its text exactly once, through the ordinary callbacks, and nested
///   references come back through `getEntity`, where we count their length.
/// - An external parsed entity is never loaded without NOENT/DTDVALID: its reference yields
///   nothing (the `reference` callback is left NULL). `externalSubset` is left NULL so an
///   external DTD is never read.
/// - Attribute values keep an internal entity reference literally (`a="&e;"`) and give `&amp;`
///   as `&#38;`; `XMLAttributes` finishes that decoding.
/// - A `reference` callback, if set, is called after the text of each internal reference, and
///   alone for an external one: it adds nothing, so it stays NULL.
final class LibXMLPushParser {
  /// libxml2's context. Not private so that the door's other file (`LibXMLDirectElements`,
  /// which reads its namespace table and dictionary) can reach it; nothing else does.
  let context: xmlParserCtxtPtr
  /// Where the SAX events go, also those of the elements handed over without libxml2.
  let builder: FeedDocumentBuilder
  private var handler = xmlSAXHandler()
  /// The attribute array and the names of the elements handed over without libxml2
  /// (`handOver`).
  let attributeSlots = ReusableBuffer<UnsafePointer<xmlChar>?>(capacity: 80)
  let resolvedNames = ReusableBuffer<ResolvedName>(
    capacity: SimpleMarkupScanner.maximumChildren + 1)
  /// Names of the elements handed over, as the dictionary of this context interned them.
  let internedNames = InternedNames()
  /// How much of one start tag libxml2 may hold before it is counted again
  /// (`checkWaitingStartTag`).
  private var nextStartTagCheck = LibXMLPushParser.firstStartTagCheck
  /// A start tag past `maxAttributes` whose rest is being dropped (`OversizedStartTag`).
  private var oversizedTag: OversizedStartTag?

  /// Parsing options: recover from well-formedness errors (real feeds have them), never
  /// substitute or load external entities (`NOENT`, `DTDLOAD` stay off), no network, no
  /// `HUGE`, and `IGNORE_ENC` because what we push is UTF-8 whatever the declaration says.
  private static let options: Int32 = Int32(
    XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue)

  private static let initializeOnce: Void = { xmlInitParser() }()

  /// Nil when libxml2 cannot make a context. The bytes pushed are UTF-8: `StreamingFeedParser`
  /// converts every other encoding first (see `IconvTranscoder`).
  init?(documentURL: String?, builder: FeedDocumentBuilder) {
    _ = Self.initializeOnce
    self.builder = builder
    handler.initialized = UInt32(XML_SAX2_MAGIC)
    handler.startElementNs = saxStartElement
    handler.endElementNs = saxEndElement
    handler.characters = saxCharacters
    handler.cdataBlock = saxCharacters
    handler.serror = saxError
    handler.getEntity = saxGetEntity
    handler.getParameterEntity = saxGetParameterEntity
    handler.entityDecl = saxEntityDecl
    handler.internalSubset = saxInternalSubset
    let userData = Unmanaged.passUnretained(builder).toOpaque()
    guard let context = xmlCreatePushParserCtxt(&handler, userData, nil, 0, nil) else {
      return nil
    }
    self.context = context
    // Validity-class errors (an unread parameter entity) reach `serror` with the validation
    // context's user data, which libxml2 sets to the parser context: point it at ours too.
    context.pointee.vctxt.userData = userData
    _ = xmlCtxtUseOptions(context, Self.options)
    builder.attach(parserHandle: UnsafeMutableRawPointer(context))
  }

  deinit {
    builder.attach(parserHandle: nil)
    if let doc = context.pointee.myDoc {
      xmlFreeDoc(doc)
      context.pointee.myDoc = nil
    }
    xmlFreeParserCtxt(context)
  }

  /// The context behind a handle the builder holds (`FeedDocumentBuilder.parserHandle`).
  fileprivate static func context(_ handle: UnsafeMutableRawPointer?) -> xmlParserCtxtPtr? {
    handle?.assumingMemoryBound(to: xmlParserCtxt.self)
  }

  /// Stops the parse for good: libxml2 calls back no more (the builder's `stop`).
  static func stop(_ handle: UnsafeMutableRawPointer?) {
    if let context = context(handle) { xmlStopParser(context) }
  }

  /// Hands over what libxml2 holds unparsed, in order: the rest of its decoded input, then
  /// (with an encoder, libxml2 converts lazily) the raw bytes not yet converted, still in the
  /// document's ASCII-compatible encoding. For the epilog: what follows the root element.
  static func forEachUnparsedRegion(
    _ handle: UnsafeMutableRawPointer?, _ body: (UnsafeRawBufferPointer) -> Void
  ) {
    guard let context = context(handle) else { return }
    if let input = context.pointee.input, let current = input.pointee.cur,
      let end = input.pointee.end, end > current
    {
      body(UnsafeRawBufferPointer(start: current, count: end - current))
    }
    if let raw = context.pointee.input?.pointee.buf?.pointee.raw, xmlBufUse(raw) > 0,
      let content = xmlBufContent(raw)
    {
      body(UnsafeRawBufferPointer(start: content, count: xmlBufUse(raw)))
    }
  }

  /// Whether libxml2's unparsed input starts with `</`; nil when fewer than two bytes wait.
  /// libxml2 raises "extra content at the end" with its input at the left-over text, and a
  /// left-over end tag (of a stray `</b>` shifting the nesting) is harmless where text is not.
  static func unparsedInputStartsWithEndTag(_ handle: UnsafeMutableRawPointer?) -> Bool? {
    guard let input = context(handle)?.pointee.input, let current = input.pointee.cur,
      let end = input.pointee.end, end - current >= 2
    else { return nil }
    return current[0] == UInt8(ascii: "<") && current[1] == UInt8(ascii: "/")
  }

  /// libxml2's error code in the builder's terms.
  fileprivate static func kind(of code: Int32) -> XMLErrorKind {
    switch xmlParserErrors(UInt32(code)) {
    case XML_ERR_TAG_NAME_MISMATCH: .tagNameMismatch
    case XML_ERR_TAG_NOT_FINISHED: .tagNotFinished
    case XML_ERR_DOCUMENT_EMPTY: .documentEmpty
    case XML_ERR_DOCUMENT_END: .documentEnd
    default: .other(Int(code))
    }
  }

  /// Bytes libxml2 holds that it has not parsed yet (the tail of the last chunk).
  var unparsedByteCount: Int {
    guard let input = context.pointee.input, let current = input.pointee.cur,
      let end = input.pointee.end
    else { return 0 }
    return end - current
  }

  /// True when libxml2 has parsed every byte pushed so far and is reading element content
  /// (with `inCDATASection`, the inside of a CDATA section): the text that comes next would
  /// reach the builder as it is (character data: decoded).
  func isWaiting(inCDATASection: Bool) -> Bool {
    guard
      context.pointee.instate
        == (inCDATASection ? XML_PARSER_CDATA_SECTION : XML_PARSER_CONTENT),
      context.pointee.disableSAX == 0, unparsedByteCount == 0
    else { return false }
    // Once libxml2 2.9.14 has met an error, it drops every entity reference it reads, even
    // `&amp;` (`xmlParseReference` returns when the document is not well-formed): character
    // data would then not read as decoded. CDATA has no references.
    return inCDATASection || context.pointee.wellFormed != 0
  }

  /// Counts the lines of text that went to the builder without libxml2, as libxml2 would have,
  /// so that the line numbers in its later messages stay true.
  func skipped(_ content: UnsafeRawBufferPointer) {
    guard let input = context.pointee.input, let base = content.baseAddress else { return }
    var position = base
    let end = base + content.count
    var lineStart: UnsafeRawPointer?
    while position < end, let newline = memchr(position, 0x0A, end - position) {
      input.pointee.line += 1
      position = UnsafeRawPointer(newline) + 1
      lineStart = position
    }
    if let lineStart {
      input.pointee.col = Int32(truncatingIfNeeded: end - lineStart + 1)
    } else {
      input.pointee.col &+= Int32(truncatingIfNeeded: content.count)
    }
  }

  /// True once libxml2 will parse no more: it halted on a fatal error, or we stopped it.
  var hasHalted: Bool { context.pointee.instate == XML_PARSER_EOF }

  /// Feeds bytes in the encoding given at init; `terminate` ends the document.
  ///
  /// In pieces of at most `maxPiece` bytes, each followed by the count of a start tag libxml2
  /// is still gathering, so that a huge tag inside one large chunk is found before libxml2
  /// holds all of it; the rest of a tag past `maxAttributes` is dropped (`OversizedStartTag`).
  func push(_ bytes: UnsafeRawBufferPointer, terminate: Bool) {
    var rest = bytes
    while true {
      if var tag = oversizedTag {
        if let (ending, after) = tag.skip(rest) {
          oversizedTag = nil
          ending.withUnsafeBytes { pushToLibXML($0, terminate: false) }
          rest = UnsafeRawBufferPointer(rebasing: rest[after...])
        } else {
          oversizedTag = tag
          rest = UnsafeRawBufferPointer(start: nil, count: 0)
        }
      }
      let count = min(rest.count, Self.maxPiece)
      let isLast = count == rest.count
      if count > 0 || (isLast && terminate) {
        pushToLibXML(
          UnsafeRawBufferPointer(rebasing: rest[..<count]), terminate: terminate && isLast)
      }
      if isLast { return }
      rest = UnsafeRawBufferPointer(rebasing: rest[count...])
    }
  }

  /// The most bytes given to libxml2 at once (see `push`).
  private static let maxPiece = 65_536

  private func pushToLibXML(_ bytes: UnsafeRawBufferPointer, terminate: Bool) {
    if terminate { builder.documentEnded = true }
    withSilencedGlobalErrors {
      let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
      _ = xmlParseChunk(context, base, Int32(bytes.count), terminate ? 1 : 0)
    }
    if !terminate { checkWaitingStartTag() }
  }

  /// libxml2 reads a start tag only once all of it has arrived, and then compares its
  /// attributes pair by pair: by the time the builder could count them (`maxAttributes`), a tag
  /// with 200,000 had cost 10 s. So a tag libxml2 is still gathering is counted here, each time
  /// what it holds of it doubles (the count is linear in the end), and the parse stops before
  /// the rest of it is pushed. A tag that arrives in one push is at most a piece long, a few
  /// thousand attributes, and the count in `startElementNs` stops the parse after it.
  private func checkWaitingStartTag() {
    guard context.pointee.instate == XML_PARSER_START_TAG, !builder.isStopped else {
      nextStartTagCheck = Self.firstStartTagCheck
      return
    }
    let waiting = unparsedByteCount
    guard waiting >= nextStartTagCheck, let start = context.pointee.input?.pointee.cur else {
      return
    }
    nextStartTagCheck = waiting &* 2
    let limit = builder.limits.maxAttributes
    if let tag = OversizedStartTag.cut(
      UnsafeBufferPointer(start: start, count: waiting), limit: limit)
    {
      oversizedTag = tag
      builder.noteTooManyAttributes()
    }
  }

  /// Bytes of one start tag libxml2 may hold before they are counted.
  private static let firstStartTagCheck = 16_384

  /// Errors libxml2 raises without a context (iconv setup, encoding handlers) go to a
  /// thread-local global handler that prints to stderr by default: silence it for the call,
  /// then restore whatever the embedding program had set.
  private func withSilencedGlobalErrors(_ body: () -> Void) {
    let savedHandler = __xmlStructuredError().pointee
    let savedContext = __xmlStructuredErrorContext().pointee
    xmlSetStructuredErrorFunc(nil, saxIgnoreError)
    body()
    xmlSetStructuredErrorFunc(savedContext, savedHandler)
  }
}

/// Counts toward `maxEntityExpansion` and stops the parse past it; see the type's comment.
private func saxGetEntity(
  _ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?
) -> xmlEntityPtr? {
  guard let (builder, context) = runningParse(userData) else { return nil }
  return counted(
    xmlSAX2GetEntity(context, name), ifOfType: XML_INTERNAL_GENERAL_ENTITY, by: builder)
}

/// Parameter entities declared in the internal subset; an external one is found (so its
/// reference is no error) but, without DTDLOAD, never read.
private func saxGetParameterEntity(
  _ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?
) -> xmlEntityPtr? {
  guard let (builder, context) = runningParse(userData) else { return nil }
  return counted(
    xmlSAX2GetParameterEntity(context, name), ifOfType: XML_INTERNAL_PARAMETER_ENTITY,
    by: builder)
}

/// The builder and libxml2's context of a parse that has not been stopped, for the entity
/// look-ups (a stopped parse looks nothing up).
private func runningParse(
  _ userData: UnsafeMutableRawPointer?
) -> (FeedDocumentBuilder, xmlParserCtxtPtr)? {
  guard let userData else { return nil }
  let builder = FeedDocumentBuilder.from(userData)
  guard !builder.isStopped, let context = LibXMLPushParser.context(builder.parserHandle) else {
    return nil
  }
  return (builder, context)
}

/// An internal entity's length goes to the builder's expansion budget, which may refuse it
/// (the reference then gives nothing); external entities give no text, so cost nothing.
private func counted(
  _ entity: xmlEntityPtr?, ifOfType internalType: xmlEntityType, by builder: FeedDocumentBuilder
) -> xmlEntityPtr? {
  guard let entity else { return nil }
  if entity.pointee.etype == internalType,
    !builder.admitEntityExpansion(characters: Int(entity.pointee.length))
  {
    return nil
  }
  return entity
}

private func saxEntityDecl(
  _ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ type: Int32,
  _ publicId: UnsafePointer<xmlChar>?, _ systemId: UnsafePointer<xmlChar>?,
  _ content: UnsafeMutablePointer<xmlChar>?
) {
  guard let userData,
    let context = LibXMLPushParser.context(FeedDocumentBuilder.from(userData).parserHandle)
  else { return }
  xmlSAX2EntityDecl(context, name, type, publicId, systemId, content)
}

private func saxInternalSubset(
  _ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?,
  _ externalID: UnsafePointer<xmlChar>?, _ systemID: UnsafePointer<xmlChar>?
) {
  guard let userData else { return }
  let builder = FeedDocumentBuilder.from(userData)
  builder.doctype(publicID: externalID, systemID: systemID)
  guard let context = LibXMLPushParser.context(builder.parserHandle) else { return }
  if context.pointee.myDoc == nil { xmlSAX2StartDocument(context) }
  xmlSAX2InternalSubset(context, name, externalID, systemID)
}

private func saxStartElement(
  _ userData: UnsafeMutableRawPointer?, _ localname: UnsafePointer<xmlChar>?,
  _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
  _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ attributeCount: Int32,
  _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
  guard let userData, let localname else { return }
  Unmanaged<FeedDocumentBuilder>.fromOpaque(userData)._withUnsafeGuaranteedRef { builder in
    // Here rather than in the builder: elements handed over past libxml2 have a few dozen
    // attributes at most (`SimpleMarkupScanner.maximumAttributes`).
    // Past the limit, the first ones are kept and the document is not well-formed.
    let limit = builder.limits.maxAttributes
    if attributeCount > limit { builder.noteTooManyAttributes() }
    builder.startElement(
      localname: localname, prefix: prefix, uri: uri,
      namespaces: UnsafeBufferPointer(start: namespaces, count: Int(namespaceCount) * 2),
      attributes: XMLAttributes(
        base: attributes, count: min(Int(attributeCount), limit),
        context: LibXMLPushParser.context(builder.parserHandle)))
  }
}

private func saxEndElement(
  _ userData: UnsafeMutableRawPointer?, _ localname: UnsafePointer<xmlChar>?,
  _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?
) {
  guard let userData else { return }
  Unmanaged<FeedDocumentBuilder>.fromOpaque(userData)._withUnsafeGuaranteedRef {
    $0.endElement()
  }
}

private func saxCharacters(
  _ userData: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<xmlChar>?, _ count: Int32
) {
  guard let userData, let bytes, count > 0 else { return }
  Unmanaged<FeedDocumentBuilder>.fromOpaque(userData)._withUnsafeGuaranteedRef {
    $0.characters(UnsafeBufferPointer(start: bytes, count: Int(count)))
  }
}

private func saxError(_ userData: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
  guard let userData, let error else { return }
  let level = error.pointee.level
  guard level == XML_ERR_ERROR || level == XML_ERR_FATAL else { return }
  // Not faults of the document as we read it: we decide the encoding ourselves (so a name in
  // the declaration that libxml2 rejects does not matter), and XML 1.0 section 4.1 lets a
  // document with an unread external subset or parameter entity use entities it cannot see.
  switch xmlParserErrors(UInt32(error.pointee.code)) {
  case XML_ERR_ENCODING_NAME, XML_ERR_UNSUPPORTED_ENCODING, XML_ERR_UNKNOWN_ENCODING,
    XML_WAR_UNDECLARED_ENTITY:
    return
  default:
    break
  }
  let text = error.pointee.message.map { String(cString: $0).trimmingSpaces() } ?? "XML error"
  let message = text + " (libxml2 error \(error.pointee.code))"
  FeedDocumentBuilder.from(userData).xmlError(
    message: message, kind: LibXMLPushParser.kind(of: error.pointee.code),
    isFatal: level == XML_ERR_FATAL)
}

private func saxIgnoreError(_ userData: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {}
