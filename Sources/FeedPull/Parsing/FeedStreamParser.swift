import FeedParser

/// Parses a feed whose bytes the caller already has (from its own HTTP client, a cache, a
/// message queue) with the same streaming parser `FeedPuller` uses: push the bytes in chunks of
/// any size, split anywhere, and the channel and then each item are handed over the moment they
/// are parsed; `finish` says how the document ended. RSS, RDF, Atom and JSON Feed are read; an
/// HTML page ends `notAFeed` with the feeds it links in `linkedFeeds`.
///
/// ```swift
/// let parser = FeedStreamParser(documentURL: "https://example.com/feed.xml") { event in
///   if case .item(let item) = event { print(item.title ?? "") }
/// }
/// for chunk in chunks { parser.push(chunk) }
/// let result = parser.finish()   // result.failure is nil when the feed was read to its end
/// ```
///
/// Not thread-safe: one document, one thread at a time. Memory stays bounded by the largest
/// single field, however long the document.
public final class FeedStreamParser {
  private let parser: FeedDocumentParser

  /// - Parameters:
  ///   - documentURL: what relative links resolve against (after `xml:base`); nil keeps them
  ///     relative.
  ///   - contentType: the HTTP `Content-Type`, if the bytes came with one: its `charset` is
  ///     one of the encoding's witnesses.
  ///   - html: what becomes of fields holding HTML (sanitized by default, as `FeedPuller`
  ///     writes them).
  ///   - onEvent: called synchronously from `push` and `finish`, in document order.
  public init(
    documentURL: String? = nil, contentType: String? = nil, html: HTMLMode = .safe,
    onEvent: @escaping (FeedEvent) -> Void
  ) {
    parser = FeedDocumentParser(
      documentURL: documentURL, declaredCharset: ContentType.charset(of: contentType),
      contentType: contentType, html: html, onEvent: onEvent)
  }

  /// Parses the next chunk. Chunks after the parse has stopped (`isStopped`) are ignored.
  public func push(_ chunk: UnsafeRawBufferPointer) {
    parser.parse(chunk)
  }

  /// Parses the next chunk.
  public func push(_ chunk: some Sequence<UInt8>) {
    if let done = chunk.withContiguousStorageIfAvailable({
      parser.parse(UnsafeRawBufferPointer($0))
    }) {
      return done
    }
    Array(chunk).withUnsafeBytes { parser.parse($0) }
  }

  /// True once the parse has stopped for good (a fatal error, a limit): the rest of the bytes
  /// are not needed.
  public var isStopped: Bool { parser.isStopped }

  /// The feeds an HTML page links (`<link rel="alternate">`), in page order, once `finish` has
  /// read one; nil for any other document.
  public var linkedFeeds: [LinkedFeed]? { parser.linkedFeeds }

  /// Ends the document: hands over what the last bytes completed and says how it ended.
  public func finish() -> FeedParseResult {
    parser.finish()
  }
}

@available(*, unavailable)
extension FeedStreamParser: Sendable {}
