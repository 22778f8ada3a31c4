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
  /// The start of a UTF-8 sequence that the end of the last chunk cut off (at most 3 bytes).
  private var cutSequence: [UInt8] = []

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
      push(chunk)
      return
    }
    leading.append(contentsOf: chunk)
    let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
    if leading.count < mark.count && Array(mark.prefix(leading.count)) == leading { return }
    pastStart = true
    let skip = leading.starts(with: mark) ? mark.count : 0
    let rest = Array(leading.dropFirst(skip))
    leading = []
    rest.withUnsafeBytes { push($0) }
  }

  /// To yajl, the UTF-8 checked first (yajl's own check is off, see `YAJLPushParser`): the
  /// well-formed bytes go on, a sequence cut off at the end waits for the next chunk, and an
  /// ill-formed one stops the parse where yajl's check would have, after every value before
  /// it, with yajl's message.
  private func push(_ chunk: UnsafeRawBufferPointer) {
    guard let parser else { return }
    var chunk = chunk
    if !cutSequence.isEmpty {
      // Complete the cut sequence from the first bytes of this chunk.
      let taken = min(3, chunk.count)
      let joined = cutSequence + chunk.prefix(taken)
      let (end, illFormed) = joined.withUnsafeBytes { UTF8Repair.wellFormedPrefix($0) }
      guard !illFormed else { return parser.stop(syntaxError: Self.invalidUTF8) }
      guard end > 0 else {
        cutSequence = joined
        return
      }
      joined.prefix(end).withUnsafeBytes { parser.push($0) }
      chunk = UnsafeRawBufferPointer(rebasing: chunk[(end - cutSequence.count)...])
      cutSequence = []
    }
    let (end, illFormed) = UTF8Repair.wellFormedPrefix(chunk)
    parser.push(UnsafeRawBufferPointer(rebasing: chunk[..<end]))
    if illFormed {
      parser.stop(syntaxError: Self.invalidUTF8)
    } else {
      cutSequence = Array(chunk[end...])
    }
  }

  /// yajl's words for it, as its own check said them.
  private static let invalidUTF8 = "lexical error: invalid bytes in UTF8 string."

  func finish() -> FeedParseResult {
    defer { finished = true }
    if !pastStart, !leading.isEmpty {
      pastStart = true
      let rest = leading
      leading = []
      rest.withUnsafeBytes { push($0) }
    }
    // A sequence the document's end cut off: yajl reads it as the broken text it is.
    if !cutSequence.isEmpty {
      cutSequence.withUnsafeBytes { parser?.push($0) }
      cutSequence = []
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
