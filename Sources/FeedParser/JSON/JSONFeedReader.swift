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
  /// The UTF-8 check, on the caller's thread, or a chunk ahead on a queue of its own.
  private var utf8 = UTF8StreamCheck()
  private let ahead: UTF8CheckAhead?

  /// `preparesAhead`: check the UTF-8 of each chunk on a thread of its own while yajl parses
  /// the one before (events then come a chunk later), as `StreamingFeedParser` does for XML.
  init(
    documentURL: String?, limits: StreamingFeedParser.Limits, html: HTMLMode = .safe,
    preparesAhead: Bool = false, onEvent: @escaping (FeedEvent) -> Void
  ) {
    ahead = preparesAhead ? UTF8CheckAhead() : nil
    builder = JSONFeedBuilder(
      documentURL: documentURL, maxDepth: limits.maxDepth, html: html, emit: onEvent)
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
    if let ahead {
      ahead.submit(chunk) { deliver($0, $1, $2) }
    } else {
      let verdict = utf8.check(chunk)
      deliver(
        verdict.head, UnsafeRawBufferPointer(rebasing: chunk[verdict.body]), verdict.illFormed)
    }
  }

  private func deliver(_ head: [UInt8], _ body: UnsafeRawBufferPointer, _ illFormed: Bool) {
    guard let parser else { return }
    if !head.isEmpty { head.withUnsafeBytes { parser.push($0) } }
    parser.push(body)
    if illFormed { parser.stop(syntaxError: Self.invalidUTF8) }
  }

  /// Hands over what the chunks given so far complete (with `preparesAhead`).
  func catchUp() {
    ahead?.catchUp { deliver($0, $1, $2) }
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
    let cut = ahead?.finish { deliver($0, $1, $2) } ?? utf8.finish()
    if !cut.isEmpty { cut.withUnsafeBytes { parser?.push($0) } }
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
