/// Reads a JSON Feed (jsonfeed.org 1 and 1.1) from byte chunks of any size, split anywhere,
/// and hands over the channel and then each item the moment its object closes; the streaming
/// counterpart of `StreamingFeedParser` for JSON, on yajl's push parser (`YAJLPushParser`).
/// Not thread-safe: one document, one thread.
///
/// JSON is UTF-8 (RFC 8259 §8.1); a UTF-8 byte order mark, which the RFC lets a reader ignore,
/// is skipped. Text that is not UTF-8, or not JSON, stops the parse like a fatal XML error:
/// the items before it stay handed over and the document fails with `xml`.
final class JSONFeedReader {
  private let builder: JSONFeedBuilder
  private var parser: YAJLPushParser?
  /// Bytes of a possible byte order mark at the start, held until it is known to be one.
  private var leading: [UInt8] = []
  private var pastStart = false
  private var finished = false

  init(
    documentURL: String?, limits: StreamingFeedParser.Limits,
    onEvent: @escaping (FeedEvent) -> Void
  ) {
    builder = JSONFeedBuilder(documentURL: documentURL, maxDepth: limits.maxDepth, emit: onEvent)
    parser = YAJLPushParser(handler: builder)
  }

  /// True once the parse has stopped for good; further chunks are ignored.
  var isStopped: Bool { finished || parser?.stop != nil || parser == nil }

  func parse(_ chunk: UnsafeRawBufferPointer) {
    guard !isStopped, chunk.count > 0 else { return }
    if pastStart {
      parser?.push(chunk)
      return
    }
    leading.append(contentsOf: chunk)
    let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
    if leading.count < mark.count && Array(mark.prefix(leading.count)) == leading { return }
    pastStart = true
    let skip = leading.starts(with: mark) ? mark.count : 0
    let rest = Array(leading.dropFirst(skip))
    leading = []
    rest.withUnsafeBytes { parser?.push($0) }
  }

  func finish() -> FeedParseResult {
    defer { finished = true }
    if !pastStart, !leading.isEmpty {
      pastStart = true
      let rest = leading
      leading = []
      rest.withUnsafeBytes { parser?.push($0) }
    }
    guard let parser else {
      return FeedParseResult(
        wellformed: false, encoding: "utf-8",
        failure: FeedParseFailure(kind: .xml, message: "the JSON parser could not start"))
    }
    parser.finish()
    builder.finish()
    var failure = builder.failure
    // Nesting past the limit stops the parse like a fatal error does.
    var wellformed = failure?.kind != .xml
    if case .syntax(let message) = parser.stop {
      wellformed = false
      // Junk after the closed top-level object is recovered from, as junk after an XML
      // document's root is: the feed was read whole.
      if !builder.documentClosed {
        failure = FeedParseFailure(kind: .xml, message: "invalid JSON: \(message)")
      }
    }
    self.parser = nil
    return FeedParseResult(wellformed: wellformed, encoding: "utf-8", failure: failure)
  }
}

@available(*, unavailable)
extension JSONFeedReader: Sendable {}
