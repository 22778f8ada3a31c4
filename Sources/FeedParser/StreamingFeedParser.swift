#if canImport(Glibc)
  import Glibc
#endif

/// Parses one feed document from byte chunks of any size, split anywhere, and hands over the
/// channel and then each item the moment its end tag is parsed. Not thread-safe: one document,
/// one thread.
///
/// Pipeline: `XMLInputPreparer` holds the first bytes until `EncodingSniffer` has decided the
/// encoding (BOM, UTF-16/32 pattern, HTTP charset and XML declaration); then every chunk
/// becomes clean UTF-8 (`IconvTranscoder` for other encodings, `UTF8Repair`) and goes through
/// `XMLRepairFilter`; from here on, its pieces go through `DoctypeGate` into libxml2's SAX2
/// push parser (long text straight to the builder, see `route`), whose events
/// `FeedDocumentBuilder` turns into `FeedEvent`s; after the root element, `EpilogScanner`
/// reads the rest. Each step carries a cut-off sequence to the next chunk, so the outcome does
/// not depend on how the document was split.
public final class StreamingFeedParser {
  /// Limits that stop a hostile document: how deep it nests, how much its entities expand.
  public struct Limits: Sendable {
    /// Elements deeper than this stop the parse (`xml`); the root is depth 1.
    public var maxDepth = 512
    /// Characters that entity references may expand to in one document.
    public var maxEntityExpansion = 1 << 20
    /// An element keeps at most this many attributes (the first ones); one with more marks
    /// the document not well-formed, and the parse reads on. libxml2 2.9.14 compares a tag's
    /// attributes pair by pair, so their time grows with the square of their number (one tag
    /// with 200,000 took 10 s): the rest of such a tag never reaches it
    /// (`OversizedStartTag`). Feeds use a few dozen at most.
    public var maxAttributes = 1024
    /// The limits feedpull's command line uses: depth 512, 1 MiB of entity text, 1,024
    /// attributes an element.
    public init() {}
  }

  private let documentURL: String?
  private let builder: FeedDocumentBuilder
  private let preparer: XMLInputPreparer
  /// Set when the preparer runs a chunk ahead on a thread of its own.
  private let ahead: PreparationAhead?
  private var parser: LibXMLPushParser?
  private var parserStarted = false
  /// The DOCTYPE reaches libxml2 in one piece.
  private var doctypeGate = DoctypeGate()
  /// Off where libxml2 is a version the hand-over was not verified on (`LibXMLVersion`), and in
  /// tests that compare with libxml2 reading all text itself.
  var handsTextToBuilder = LibXMLVersion.allowsTextHandOver
  /// Character data handed over, decoded. Touched only by the parse's one thread, never with
  /// overlapping accesses, so unchecked: the dynamic checks cost more than the hand-over saved.
  @exclusivity(unchecked) private var decodedText: [UInt8] = []
  /// Reads the markup that may bypass libxml2 (`routeMarkup`).
  private let markupScanner = SimpleMarkupScanner()
  /// Elements (children included) the builder got without libxml2, for tests that must know
  /// the hand-over ran.
  private(set) var elementsHandedOver = 0
  private var byteCount = 0
  private var firstSignificantByte: UInt8?
  private var finished = false

  /// - Parameters:
  ///   - documentURL: the URL relative links resolve against (after `xml:base`), if known.
  ///   - declaredCharset: the `charset` of an HTTP `Content-Type`, if any.
  ///   - html: what becomes of fields holding HTML: sanitized and made absolute (`safe`, the
  ///     default), left as the feed gives them (`raw`), or rendered as text (`text`).
  ///   - preparesAhead: convert and repair each chunk on a thread of its own while the one
  ///     before it is parsed. Events then come a chunk later (still from `parse` and `finish`
  ///     on the caller's thread), so it suits large documents read whole, such as files, and
  ///     not a transfer whose items should appear as their bytes arrive.
  ///   - onEvent: called synchronously from `parse` and `finish`.
  public init(
    documentURL: String?, declaredCharset: String? = nil, limits: Limits = Limits(),
    html: HTMLMode = .safe, preparesAhead: Bool = false,
    onEvent: @escaping (FeedEvent) -> Void
  ) {
    self.documentURL = documentURL
    builder = FeedDocumentBuilder(
      documentURL: documentURL, limits: limits, html: html, emit: onEvent)
    preparer = XMLInputPreparer(declaredCharset: declaredCharset)
    ahead = preparesAhead ? PreparationAhead(preparer: preparer) : nil
  }

  /// True once the parse has stopped for good; further chunks are ignored.
  public var isStopped: Bool {
    builder.isStopped || finished
      || ((parser?.hasHalted ?? false) && !builder.isReadingEpilog)
  }

  /// Bytes and open elements the parser holds: bounded however many items the document has.
  /// For tests, without `preparesAhead` (the preparer is then the caller's to read).
  var retainedStateSize: Int {
    preparer.heldByteCount + builder.retainedStateSize + bytesLibXMLHolds
      + doctypeGate.heldByteCount
  }

  /// Bytes pushed to libxml2 that it has not parsed yet.
  var bytesLibXMLHolds: Int { parser?.unparsedByteCount ?? 0 }

  /// The first error libxml2 reported, for diagnostics.
  var firstXMLError: String? { builder.firstError }

  /// Feeds the next chunk of the document.
  public func parse(_ chunk: UnsafeRawBufferPointer) {
    // Whether the body was empty must not depend on where a stop fell among the chunks.
    byteCount += chunk.count
    if firstSignificantByte == nil, let byte = chunk.first(where: { !Self.isSpaceOrBOM($0) }) {
      firstSignificantByte = byte
    }
    guard !isStopped, chunk.count > 0 else { return }
    if let ahead {
      ahead.submit(chunk) { route($0, $1) }
    } else {
      preparer.prepare(chunk) { route($0, $1) }
    }
  }

  /// Hands over what the chunks given so far complete, without waiting for the next: a no-op
  /// unless the parser prepares ahead. Call before waiting a long while for more bytes.
  public func catchUp() {
    ahead?.catchUp { route($0, $1) }
  }

  /// Ends the document: flushes what is pending, hands over the channel if no item did, and
  /// says how the document ended. Call once.
  public func finish() -> FeedParseResult {
    defer { finished = true }
    if let ahead {
      ahead.finish { route($0, $1) }
    } else {
      preparer.finish { route($0, $1) }
    }
    // A document whose encoding was decided reaches libxml2 even if no piece came of it (it
    // says the document is empty).
    if preparer.decision != nil { startParser() }
    if let parser, !parser.hasHalted || builder.isReadingEpilog, !builder.isStopped {
      doctypeGate.finish { deliver($0) }
      if !builder.isReadingEpilog {
        parser.push(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
      }
    }
    builder.finishEpilog()
    builder.finishDocument()
    let failure = DocumentEnding(endingFacts).failure
    let repaired = preparer.repaired || doctypeGate.sawMalformedMarkup
    // How far the preparation got when the parse stopped early depends on the chunking: a
    // switch to windows-1252 counts only for a document read to its end.
    let decision = failure == nil ? preparer.readEncoding : preparer.decision
    parser = nil
    return FeedParseResult(
      wellformed: failure == nil && builder.wellformed && !repaired
        && (decision?.trustworthy ?? true),
      encoding: decision?.name, failure: failure)
  }

  /// What the parse saw, for `DocumentEnding` to judge.
  private var endingFacts: DocumentEnding.Facts {
    DocumentEnding.Facts(
      isEmpty: byteCount == 0 || firstSignificantByte == nil,
      firstSignificantByte: firstSignificantByte, root: builder.rootState,
      rootClosed: builder.rootClosed, rootClosedEarly: builder.rootClosedEarly,
      stopFailure: builder.stopFailure, stoppedAtFatalError: builder.stoppedAtFatalError,
      firstError: builder.firstError)
  }

  private func startParser() {
    guard !parserStarted else { return }
    parserStarted = true
    parser = LibXMLPushParser(documentURL: documentURL, builder: builder)
  }

  /// Markup goes on to libxml2. So does text (CDATA content, and plain character data; see
  /// `XMLRepairFilter.Piece`), unless libxml2 has parsed every byte pushed so far and is
  /// reading the place where the text goes: then it would hand the text to the builder as it
  /// is (the repairs upstream leave nothing in it libxml2 could reject), so it goes there
  /// directly. libxml2 checks such text character by character, delivers CDATA 300 bytes at a
  /// time (holding a huge section whole until its `]]>` arrives) and calls back once for each
  /// reference; the builder gets the same text in fewer, larger pieces.
  private func route(_ bytes: UnsafeRawBufferPointer, _ piece: XMLRepairFilter.Piece) {
    startParser()
    if piece == .markup {
      guard handsTextToBuilder else { return gateAndPush(bytes) }
      let taken = doctypeGate.processUntilOpen(bytes) { deliver($0) }
      if taken < bytes.count { routeMarkup(UnsafeRawBufferPointer(rebasing: bytes[taken...])) }
      return
    }
    if handsTextToBuilder, doctypeGate.isOpen, !builder.isReadingEpilog,
      !builder.isStopped, let parser,
      parser.isWaiting(inCDATASection: piece == .cdataContent)
    {
      parser.skipped(bytes)
      if piece == .cdataContent {
        builder.characters(bytes.assumingMemoryBound(to: UInt8.self))
      } else {
        handOverText(bytes)
      }
    } else {
      gateAndPush(bytes)
    }
  }

  /// Markup, construct by construct: each element (childless, or with only childless
  /// children) and each run of plain text that libxml2, waiting in element content with
  /// nothing unparsed, would only pass on, goes to the builder directly (`SimpleMarkupScanner`, `LibXMLPushParser.handOver`). Every other tag goes
  /// to libxml2, gathered with the tags and text that follow it up to the next element handed
  /// over (a push costs libxml2 about a thousand instructions), and ending at a tag, so that
  /// libxml2 waits again right after it. Whenever libxml2 is not waiting (it holds bytes, met
  /// an error, or is past the root), the rest of the piece goes to it as it is.
  private func routeMarkup(_ bytes: UnsafeRawBufferPointer) {
    guard let parser else { return gateAndPush(bytes) }
    // `bytes[pending..<pendingEnd]` waits for libxml2 and ends with a tag; plain text after it
    // (`pendingEnd..<offset`) is held until it is known what follows. `bytes[bypassed..<pending]`
    // went to the builder: its lines are counted for libxml2 before anything else reaches it.
    var offset = 0
    var pending = 0
    var pendingEnd = 0
    var bypassed = 0
    func push(from start: Int, to end: Int) {
      if start > bypassed {
        parser.skipped(UnsafeRawBufferPointer(rebasing: bytes[bypassed..<start]))
      }
      if end > start { gateAndPush(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
      bypassed = end
    }
    func pushRest() { push(from: pending, to: bytes.count) }
    func isWaiting() -> Bool {
      !builder.isReadingEpilog && !builder.isStopped && parser.isWaiting(inCDATASection: false)
    }
    func flush() -> Bool {
      if pendingEnd > pending {
        push(from: pending, to: pendingEnd)
        pending = pendingEnd
      }
      return isWaiting()
    }
    // The end of a CDATA section handed over before this piece: libxml2 reads it on its own.
    if bytes.count >= 3, bytes[0] == UInt8(ascii: "]"), bytes[1] == UInt8(ascii: "]"),
      bytes[2] == UInt8(ascii: ">"), parser.isWaiting(inCDATASection: true)
    {
      pendingEnd = 3
      offset = 3
    } else if !flush() {
      // libxml2 is inside a tag begun before this piece (the root's start tag, which the
      // DOCTYPE gate lets through cut after its first bytes): it may finish it first.
      guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
        let end = SimpleMarkupScanner.closingBracket(base, bytes.count, from: 0)
      else { return pushRest() }
      pendingEnd = end
      offset = end
      guard flush() else { return pushRest() }
    }
    while offset < bytes.count {
      switch markupScanner.step(bytes, at: offset) {
      case .element(let end):
        guard flush() else { return pushRest() }
        if offset > pending {
          handOverText(UnsafeRawBufferPointer(rebasing: bytes[pending..<offset]))
          pending = offset
          guard isWaiting() else { return pushRest() }
        }
        if parser.handOver(
          markupScanner, in: bytes, from: offset, to: end, decodedText: &decodedText)
        {
          elementsHandedOver &+= markupScanner.partCount
        } else {
          push(from: offset, to: end)
        }
        pending = end
        pendingEnd = end
        offset = end
        guard isWaiting() else { return pushRest() }
      case .text(let end):
        offset = end
      case .construct(let end):
        pendingEnd = end
        offset = end
      case .rest:
        return pushRest()
      }
    }
    // Held text goes to the builder if nothing waits for libxml2 before it.
    if offset > pendingEnd, pendingEnd == pending, isWaiting() {
      handOverText(UnsafeRawBufferPointer(rebasing: bytes[pending..<offset]))
      pending = offset
    }
    pushRest()
  }

  /// Plain character data to the builder, decoded, as libxml2 would hand it over.
  private func handOverText(_ text: UnsafeRawBufferPointer) {
    PlainCharacterData.withText(of: text, scratch: &decodedText) { builder.characters($0) }
  }

  private func gateAndPush(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count > 0 else { return }
    doctypeGate.process(bytes) { deliver($0) }
  }

  /// The last step: to libxml2, or after the root element to the epilog scanner.
  private func deliver(_ bytes: UnsafeRawBufferPointer) {
    if builder.isReadingEpilog {
      builder.scanEpilog(bytes)
    } else if let parser, !parser.hasHalted, !builder.isStopped {
      parser.push(bytes, terminate: false)
    }
  }

  private static func isSpaceOrBOM(_ byte: UInt8) -> Bool {
    byte.isXMLSpace || byte == 0xEF || byte == 0xBB
      || byte == 0xBF || byte == 0xFE || byte == 0xFF || byte == 0x00
  }
}

extension StreamingFeedParser {
  /// Convenience for callers holding bytes in an array.
  public func parse(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { parse($0) }
  }
}
