/// Parses one document that may be an RSS/RDF/Atom feed, a JSON Feed or an HTML page, from
/// byte chunks of any size: it holds the first bytes until `DocumentFormat` has decided, then
/// hands them and every later chunk to `StreamingFeedParser`, `JSONFeedReader` or
/// `HTMLHeadReader`. The pipeline's one parser; feeds' events come out the same way whichever
/// format they were. Not thread-safe: one document, one thread.
public final class FeedDocumentParser {
  private enum Reader {
    case xml(StreamingFeedParser)
    case json(JSONFeedReader)
    case html(HTMLHeadReader)
  }

  private let documentURL: String?
  private let declaredCharset: String?
  private let contentType: String?
  private let limits: StreamingFeedParser.Limits
  private let html: HTMLMode
  private let preparesAhead: Bool
  private let onEvent: (FeedEvent) -> Void
  private var reader: Reader?
  private var heldBytes: [UInt8] = []

  /// The feeds an HTML page links, once `finish` has read one; nil for any other document.
  public private(set) var linkedFeeds: [LinkedFeed]?

  /// - Parameters:
  ///   - contentType: the HTTP `Content-Type`, which decides where the first bytes do not.
  ///   - the rest: see `StreamingFeedParser.init` (`preparesAhead` applies to XML only).
  public init(
    documentURL: String?, declaredCharset: String? = nil, contentType: String? = nil,
    limits: StreamingFeedParser.Limits = .init(), html: HTMLMode = .safe,
    preparesAhead: Bool = false, onEvent: @escaping (FeedEvent) -> Void
  ) {
    self.documentURL = documentURL
    self.declaredCharset = declaredCharset
    self.contentType = contentType
    self.limits = limits
    self.html = html
    self.preparesAhead = preparesAhead
    self.onEvent = onEvent
  }

  /// The format decided, once the first bytes have been seen.
  var format: DocumentFormat? {
    switch reader {
    case .xml: .xml
    case .json: .json
    case .html: .html
    case nil: nil
    }
  }

  /// True once the parse has stopped for good (an HTML page's head is over, a fatal error, a
  /// document that is not a feed): the rest of the body is not needed.
  public var isStopped: Bool {
    switch reader {
    case .xml(let parser): parser.isStopped
    case .json(let parser): parser.isStopped
    case .html(let parser): parser.isStopped
    case nil: false
    }
  }

  /// Feeds the next chunk; the first bytes wait until they decide the format.
  public func parse(_ chunk: UnsafeRawBufferPointer) {
    if let reader {
      Self.parse(chunk, with: reader)
      return
    }
    heldBytes.append(contentsOf: chunk)
    guard
      let format = DocumentFormat.decide(heldBytes, contentType: contentType, complete: false)
    else { return }
    start(format)
  }

  /// See `StreamingFeedParser.catchUp`; HTML hands everything over as it goes.
  public func catchUp() {
    switch reader {
    case .xml(let parser): parser.catchUp()
    case .json(let parser): parser.catchUp()
    case .html, nil: break
    }
  }

  /// Ends the document and says how it ended. Call once.
  public func finish() -> FeedParseResult {
    if reader == nil {
      start(DocumentFormat.decide(heldBytes, contentType: contentType, complete: true) ?? .xml)
    }
    switch reader {
    case .xml(let parser): return parser.finish()
    case .json(let parser): return parser.finish()
    case .html(let parser):
      let (feeds, result) = parser.finish()
      linkedFeeds = feeds
      return result
    case nil: preconditionFailure("a reader was started above")
    }
  }

  private func start(_ format: DocumentFormat) {
    let reader: Reader =
      switch format {
      case .xml:
        .xml(
          StreamingFeedParser(
            documentURL: documentURL, declaredCharset: declaredCharset, limits: limits,
            html: html, preparesAhead: preparesAhead, onEvent: onEvent))
      case .json:
        .json(
          JSONFeedReader(
            documentURL: documentURL, limits: limits, html: html,
            preparesAhead: preparesAhead, onEvent: onEvent))
      case .html:
        .html(HTMLHeadReader(documentURL: documentURL, declaredCharset: declaredCharset))
      }
    self.reader = reader
    let held = heldBytes
    heldBytes = []
    if !held.isEmpty { held.withUnsafeBytes { Self.parse($0, with: reader) } }
  }

  private static func parse(_ chunk: UnsafeRawBufferPointer, with reader: Reader) {
    switch reader {
    case .xml(let parser): parser.parse(chunk)
    case .json(let parser): parser.parse(chunk)
    case .html(let parser): parser.parse(chunk)
    }
  }
}

extension FeedDocumentParser {
  /// Convenience for callers holding bytes in an array.
  public func parse(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { parse($0) }
  }
}

@available(*, unavailable)
extension FeedDocumentParser: Sendable {}
