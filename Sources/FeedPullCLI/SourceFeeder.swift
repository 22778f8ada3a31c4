import FeedPull
import FeedPullSupport
import Subscriptions

/// A run without state started a window of sources at a time: sources are handed to the puller
/// as those before them end (a sixteenth of the window at a time), so that what a source costs
/// before its end (its request, its document, its place in the worker's queue: some 2 KB) is
/// held for `window` sources, not for every source of the list (100,000 sources handed over at
/// once held 220 MB).
///
/// `stop()` starts nothing more: the sources in flight end `cancelled` through the puller, and
/// those never started are written `cancelled` here, so that every source still ends once.
final class SourceFeeder: Sendable {
  private struct State {
    /// The number of the next source to start.
    var next = 0
    /// Batches started and not ended, by their first source's number (nil while the puller
    /// is being handed it).
    var inFlight: [Int: PullBatch?] = [:]
    /// Room for this many more starts (ends not yet followed by a start).
    var room = 0
    /// A thread is starting sources (a start that ends at once adds room and returns).
    var starting = false
    var ended = 0
    var failed = 0
    var stopped = false
  }

  private let sources: SourceList
  private let puller: FeedPuller
  private let sink: any PullRecordSink
  private let finished: @Sendable (_ failed: Int) -> Void
  private let chunk: Int
  private let state: TSanVisibleMutex<State>

  /// Feeds `sources` to `puller` into `sink`, at most `window` at once, and calls `finished`
  /// with the number of sources that did not end `ok`, once every source has ended.
  init(
    _ sources: SourceList, window: Int, puller: FeedPuller, into sink: any PullRecordSink,
    finished: @escaping @Sendable (_ failed: Int) -> Void
  ) {
    self.sources = sources
    self.puller = puller
    self.sink = sink
    self.finished = finished
    var initial = State()
    initial.room = max(1, window)
    chunk = max(1, initial.room / 16)
    state = TSanVisibleMutex(initial)
  }

  /// Starts the first window.
  func start() {
    if sources.isEmpty {
      finished(0)
      return
    }
    state.withLock { $0.starting = true }
    fill()
  }

  /// Starts nothing more and cancels what is in flight; the sources never started end
  /// `cancelled` at once. Safe from any thread, and more than once.
  func stop() {
    let (batches, unstarted) = state.withLock { state in
      state.stopped = true
      let unstarted = state.next..<sources.count
      state.next = sources.count
      return (state.inFlight.values.compactMap { $0 }, unstarted)
    }
    for index in unstarted {
      var end = EndRecord(source: sources[index])
      end.error = PullError(kind: .cancelled, message: "cancelled")
      sink.receive(.end(end))
    }
    if !unstarted.isEmpty { ended(count: unstarted.count, failed: unstarted.count) }
    for batch in batches { batch.cancel() }
  }

  /// Starts sources while there is room, a batch of `chunk` at a time (one hand-over to the
  /// puller, and one wake of its worker, for several sources), on one thread at a time; a batch
  /// that ends inside its own start (unsupported schemes) only adds room, taken by the loop here.
  private func fill() {
    while true {
      let range: Range<Int>? = state.withLock { state in
        let size = min(chunk, sources.count - state.next)
        guard size > 0, state.room >= size, !state.stopped else {
          state.starting = false
          return nil
        }
        state.room -= size
        state.next += size
        state.inFlight.updateValue(nil, forKey: state.next - size)
        return state.next - size..<state.next
      }
      guard let range else { return }
      let batch = puller.start(
        range.map { PullSource(sources[$0]) }, into: sink, keeping: .failedOnly
      ) { [self] ends in
        state.withLock { _ = $0.inFlight.removeValue(forKey: range.lowerBound) }
        ended(count: range.count, failed: ends.count)
      }
      let stopped = state.withLock { state in
        // Gone when it ended inside `start`.
        if state.inFlight.keys.contains(range.lowerBound) {
          state.inFlight.updateValue(batch, forKey: range.lowerBound)
        }
        return state.stopped
      }
      if stopped { batch.cancel() }
    }
  }

  private func ended(count: Int, failed: Int) {
    let (done, failures, fillNow) = state.withLock { state in
      state.ended += count
      state.failed += failed
      state.room += count
      let fillNow = !state.starting && !state.stopped && state.next < sources.count
      if fillNow { state.starting = true }
      return (state.ended == sources.count, state.failed, fillNow)
    }
    if fillNow { fill() }
    if done { finished(failures) }
  }
}
