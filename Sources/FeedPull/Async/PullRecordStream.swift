import Dispatch
import FeedPullSupport
import Synchronization

extension FeedPuller {
  /// The records of `sources` as an async sequence, for Swift concurrency: `feed`, `item` and
  /// `end` records as they are parsed, ending after the last source's `end`.
  ///
  /// Cancelling the consuming task cancels every source still running. When the consumer is
  /// slower than the network, at most about `bufferLimit` records wait (plus those of the chunk
  /// being parsed): transfers pause (their `--timeout` keeps running) and local readers wait
  /// until the consumer has taken half of them.
  public func records(_ sources: [PullSource], bufferLimit: Int = 1024) -> PullRecordStream {
    let (stream, continuation) = AsyncStream.makeStream(of: PullRecord.self)
    let buffer = RecordStreamBuffer(continuation: continuation, limit: max(2, bufferLimit))
    let batch = start(sources, into: buffer, keeping: .failedOnly) { _ in
      continuation.finish()
      buffer.allEnded.signal()
    }
    continuation.onTermination = { reason in
      buffer.terminate()
      if case .cancelled = reason { batch.cancel() }
    }
    return PullRecordStream(stream: stream, buffer: buffer)
  }

  /// The records of one source.
  public func records(_ source: String, bufferLimit: Int = 1024) -> PullRecordStream {
    records([PullSource(source)], bufferLimit: bufferLimit)
  }
}

/// Records of a pull, in arrival order (see `FeedPuller.records(_:bufferLimit:)`).
public struct PullRecordStream: AsyncSequence, Sendable {
  /// Every kind of record, in the order the puller produced them; a source's `end` is its last.
  public typealias Element = PullRecord
  let stream: AsyncStream<PullRecord>
  let buffer: RecordStreamBuffer

  /// The records `buffer` yields into `stream` (also the watch's, in Subscriptions).
  package init(stream: AsyncStream<PullRecord>, buffer: RecordStreamBuffer) {
    self.stream = stream
    self.buffer = buffer
  }

  /// Starts reading. Only one iterator reads a stream: records are delivered once.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator(), buffer: buffer)
  }

  /// Reads the stream and, for each record taken, frees a place in the bounded buffer so that the
  /// puller, paused when the buffer was full, goes on.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<PullRecord>.Iterator
    let buffer: RecordStreamBuffer

    /// The next record, waiting for it; nil once every source has ended (or the stream was cancelled).
    public mutating func next() async -> PullRecord? {
      let record = await base.next()
      if record != nil { buffer.consumed() }
      return record
    }
  }
}

/// Counts the records waiting for the consumer, and wakes paused producers once it has caught
/// up (below half the limit, so they do not pause and resume on every record).
package final class RecordStreamBuffer: FlowControlledSink {
  private struct State {
    var waiting = 0
    var terminated = false
    var onCaughtUp: [@Sendable () -> Void] = []
    /// For tests: the most records that ever waited, and how often a producer was held back.
    var peakWaiting = 0
    var holds = 0
  }

  private let continuation: AsyncStream<PullRecord>.Continuation
  private let limit: Int
  private let state = TSanVisibleMutex(State())

  package init(continuation: AsyncStream<PullRecord>.Continuation, limit: Int) {
    self.continuation = continuation
    self.limit = limit
  }

  /// Signalled once every source has ended, even if the consumer has gone.
  let allEnded = DispatchSemaphore(value: 0)

  var peakWaiting: Int { state.withLock { $0.peakWaiting } }
  var holds: Int { state.withLock { $0.holds } }

  package func receive(_ record: PullRecord) {
    state.withLock { state in
      state.waiting += 1
      state.peakWaiting = max(state.peakWaiting, state.waiting)
    }
    // A record the consumer will never take does not wait.
    if case .terminated = continuation.yield(record) {
      state.withLock { $0.waiting -= 1 }
    }
  }

  package func flush() {}

  package var isBehind: Bool {
    state.withLock { !$0.terminated && $0.waiting >= limit }
  }

  package func whenCaughtUp(_ action: @escaping @Sendable () -> Void) {
    let now = state.withLock { state in
      if state.terminated || state.waiting <= limit / 2 { return true }
      state.holds += 1
      state.onCaughtUp.append(action)
      return false
    }
    if now { action() }
  }

  package func consumed() {
    let actions = state.withLock { state in
      state.waiting -= 1
      guard state.waiting <= limit / 2 else { return [@Sendable () -> Void]() }
      defer { state.onCaughtUp.removeAll() }
      return state.onCaughtUp
    }
    for action in actions { action() }
  }

  /// The consumer is gone: nobody will catch up, so nobody may wait.
  package func terminate() {
    let actions = state.withLock { state in
      state.terminated = true
      defer { state.onCaughtUp.removeAll() }
      return state.onCaughtUp
    }
    for action in actions { action() }
  }
}
