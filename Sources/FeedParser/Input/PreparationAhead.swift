import Dispatch

/// Runs a document's `XMLInputPreparer` on a serial queue of its own, one chunk ahead of the
/// parse: while the caller's thread hands chunk N's pieces to libxml2 and the builder, the
/// queue converts, repairs and filters chunk N+1. On a large document that is a sixth of the
/// work taken off the parsing thread (the other of two cores was idle).
///
/// Each chunk's pieces are copied into one `PreparedBlock`; at most two chunks are in flight,
/// so memory stays flat. Pieces reach the caller in order, from `submit` and `finish` on the
/// caller's thread, one chunk later than without it.
final class PreparationAhead: @unchecked Sendable {
  /// Touched only on `queue`, and by the caller once `finish` has waited for the queue.
  let preparer: XMLInputPreparer
  private let queue = DispatchQueue(label: "feedpull.parser.prepare")
  /// The caller's: blocks submitted and not yet routed, oldest first.
  private var inFlight: [PreparedBlock] = []
  /// The caller's: routed blocks, kept with their buffers' capacity. Reusing them keeps
  /// memory from being allocated on one thread and freed on the other, chunk after chunk.
  private var spare: [PreparedBlock] = []

  init(preparer: XMLInputPreparer) {
    self.preparer = preparer
  }

  /// Starts preparing `chunk`, then routes the pieces of the chunk before it.
  func submit(_ chunk: UnsafeRawBufferPointer, _ route: XMLInputPreparer.Emit) {
    let block = spare.popLast() ?? PreparedBlock()
    block.input.append(contentsOf: chunk)
    inFlight.append(block)
    queue.async {
      block.input.withUnsafeBytes { chunk in self.preparer.prepare(chunk) { block.append($0, $1) } }
      block.ready.signal()
    }
    while inFlight.count > 1 { routeOldest(route) }
  }

  /// Routes every chunk submitted so far.
  func catchUp(_ route: XMLInputPreparer.Emit) {
    while !inFlight.isEmpty { routeOldest(route) }
  }

  /// Prepares the document's end and routes every piece still in flight.
  func finish(_ route: XMLInputPreparer.Emit) {
    let block = spare.popLast() ?? PreparedBlock()
    inFlight.append(block)
    queue.async {
      self.preparer.finish { block.append($0, $1) }
      block.ready.signal()
    }
    catchUp(route)
    spare.removeAll()
  }

  private func routeOldest(_ route: XMLInputPreparer.Emit) {
    let block = inFlight.removeFirst()
    block.route(route)
    block.reset()
    spare.append(block)
  }
}

/// One chunk and its pieces: the chunk written by the caller, the pieces by the preparing
/// queue, read by the caller once `ready`.
private final class PreparedBlock: @unchecked Sendable {
  let ready = DispatchSemaphore(value: 0)
  var input: [UInt8] = []
  private var bytes: [UInt8] = []
  private var ends: [(end: Int, piece: XMLRepairFilter.Piece)] = []

  func append(_ piece: UnsafeRawBufferPointer, _ kind: XMLRepairFilter.Piece) {
    bytes.append(contentsOf: piece)
    if let last = ends.last, last.piece == kind {
      ends[ends.count - 1].end = bytes.count
    } else {
      ends.append((bytes.count, kind))
    }
  }

  /// Waits until the block is prepared, then hands its pieces to `route`.
  func route(_ route: XMLInputPreparer.Emit) {
    ready.wait()
    bytes.withUnsafeBytes { all in
      var start = 0
      for (end, piece) in ends {
        route(UnsafeRawBufferPointer(rebasing: all[start..<end]), piece)
        start = end
      }
    }
  }

  func reset() {
    input.removeAll(keepingCapacity: true)
    bytes.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
  }
}
