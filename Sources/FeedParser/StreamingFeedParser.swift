/// Parses one feed document from byte chunks of any size, split anywhere, and hands over the
/// channel and then each item the moment its end tag is parsed. Not thread-safe: one document,
/// one thread. STUB: the real implementation replaces this file.
public final class StreamingFeedParser {
  public struct Limits: Sendable {
    /// Elements deeper than this stop the parse (`xml`); the root is depth 1.
    public var maxDepth = 512
    /// Characters that entity references may expand to in one document.
    public var maxEntityExpansion = 1 << 20
    public init() {}
  }

  private let onEvent: (FeedEvent) -> Void

  /// - Parameters:
  ///   - documentURL: the URL relative links resolve against (after `xml:base`), if known.
  ///   - declaredCharset: the `charset` of an HTTP `Content-Type`, if any.
  ///   - onEvent: called synchronously from `parse` and `finish`.
  public init(
    documentURL: String?, declaredCharset: String? = nil, limits: Limits = Limits(),
    onEvent: @escaping (FeedEvent) -> Void
  ) {
    self.onEvent = onEvent
  }

  /// True once the parse has stopped for good; further chunks are ignored.
  public private(set) var isStopped = false

  /// Feeds the next chunk of the document.
  public func parse(_ chunk: UnsafeRawBufferPointer) {}

  /// Ends the document: flushes what is pending, hands over the channel if no item did, and
  /// says how the document ended. Call once.
  public func finish() -> FeedParseResult {
    FeedParseResult(
      wellformed: false, encoding: nil, failure: FeedParseFailure(kind: .xml, message: "stub"))
  }
}

extension StreamingFeedParser {
  /// Convenience for callers holding bytes in an array.
  public func parse(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { parse($0) }
  }
}
