import Dispatch

/// Checks that a JSON document is UTF-8 as its chunks go by, for `JSONFeedReader` (yajl's own
/// check, a character at a time inside its lexer, is off): each chunk's well-formed bytes may
/// go on to yajl, a sequence that the chunk's end cuts off is kept for the next, and the first
/// ill-formed sequence ends the document there. The same answer for any chunking.
struct UTF8StreamCheck {
  /// What of a chunk may go to yajl: `head` (a sequence the chunk before cut off, completed),
  /// then the chunk's bytes in `body`; when `illFormed`, nothing after them.
  struct Verdict {
    var head: [UInt8] = []
    var body: Range<Int> = 0..<0
    var illFormed = false
  }

  /// The start of a sequence cut off by the end of the last chunk (at most 3 bytes).
  private var cut: [UInt8] = []

  mutating func check(_ chunk: UnsafeRawBufferPointer) -> Verdict {
    var verdict = Verdict()
    var from = 0
    if !cut.isEmpty {
      let joined = cut + chunk.prefix(3)
      let (end, illFormed) = joined.withUnsafeBytes { UTF8Repair.wellFormedPrefix($0) }
      guard end >= cut.count else {
        // The cut sequence is broken, or this chunk is too short to complete it.
        if illFormed {
          verdict.illFormed = true
        } else {
          cut = joined
        }
        return verdict
      }
      verdict.head = Array(joined[..<end])
      from = end - cut.count
      cut = []
      if illFormed {
        verdict.illFormed = true
        return verdict
      }
    }
    let rest = UnsafeRawBufferPointer(rebasing: chunk[from...])
    let (end, illFormed) = UTF8Repair.wellFormedPrefix(rest)
    verdict.body = from..<(from + end)
    verdict.illFormed = illFormed
    if !illFormed { cut = Array(rest[end...]) }
    return verdict
  }

  /// The bytes of a sequence the document's end cut off: yajl reads them as the broken text
  /// they are.
  mutating func finish() -> [UInt8] {
    defer { cut = [] }
    return cut
  }
}

/// Runs a JSON document's `UTF8StreamCheck` on a serial queue of its own, one chunk ahead of
/// yajl, as `PreparationAhead` runs the XML input's stages: for files, the check (a sixteenth
/// of a JSON Feed's parse) moves to the other core. At most two chunks are in flight.
final class UTF8CheckAhead: @unchecked Sendable {
  /// Touched only on `queue`.
  private var check = UTF8StreamCheck()
  private let queue = DispatchQueue(label: "feedpull.parser.json-utf8")
  /// The caller's: chunks submitted and not yet delivered, oldest first, and spent ones kept
  /// with their capacity.
  private var inFlight: [CheckedChunk] = []
  private var spare: [CheckedChunk] = []

  /// Hands each checked chunk to `deliver` in order: the bytes that may go to yajl, and
  /// whether the text stops being UTF-8 after them.
  typealias Deliver = (_ head: [UInt8], _ body: UnsafeRawBufferPointer, _ illFormed: Bool) -> Void

  /// Starts checking `chunk`, then delivers the chunk before it.
  func submit(_ chunk: UnsafeRawBufferPointer, _ deliver: Deliver) {
    let block = spare.popLast() ?? CheckedChunk()
    block.input.append(contentsOf: chunk)
    inFlight.append(block)
    queue.async {
      block.verdict = block.input.withUnsafeBytes { self.check.check($0) }
      block.ready.signal()
    }
    while inFlight.count > 1 { deliverOldest(deliver) }
  }

  /// Delivers every chunk submitted so far.
  func catchUp(_ deliver: Deliver) {
    while !inFlight.isEmpty { deliverOldest(deliver) }
  }

  /// Delivers every chunk, then returns the bytes of a sequence the document's end cut off.
  func finish(_ deliver: Deliver) -> [UInt8] {
    catchUp(deliver)
    spare.removeAll()
    return queue.sync { check.finish() }
  }

  private func deliverOldest(_ deliver: Deliver) {
    let block = inFlight.removeFirst()
    block.ready.wait()
    block.input.withUnsafeBytes { input in
      deliver(
        block.verdict.head, UnsafeRawBufferPointer(rebasing: input[block.verdict.body]),
        block.verdict.illFormed)
    }
    block.input.removeAll(keepingCapacity: true)
    spare.append(block)
  }
}

/// One chunk and its verdict: the chunk written by the caller, the verdict by the queue, read
/// by the caller once `ready`.
private final class CheckedChunk: @unchecked Sendable {
  let ready = DispatchSemaphore(value: 0)
  var input: [UInt8] = []
  var verdict = UTF8StreamCheck.Verdict()
}
