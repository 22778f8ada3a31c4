import FeedPull
import FeedPullSupport
import Foundation

/// Watch mode for embedders: the records of new and updated items (and each pull's `feed` and
/// `end`) as an async sequence that never finishes by itself. It pulls each source when its
/// next check comes, as `feedpull --watch` does, and runs until the consuming task is cancelled
/// (in-flight pulls then end `cancelled` and are recorded; `stop()` waits for that).
///
/// ```swift
/// let watcher = try FeedWatcher(store: store, puller: puller, sources: urls)
/// for await record in watcher {
///   if case .item(let item) = record { show(item) }
/// }
/// ```
///
/// Sources can be added and removed while it runs. A consumer that falls behind holds new pulls
/// back once `bufferLimit` records wait, so memory does not grow with a slow reader.
public final class FeedWatcher: AsyncSequence, Sendable {
  /// Every kind of record: a pull's `feed`, its new and updated items, its `end`.
  public typealias Element = PullRecord
  /// The same iterator as `FeedPuller.records`: each record taken frees a place in the buffer.
  public typealias AsyncIterator = PullRecordStream.AsyncIterator

  private let records: PullRecordStream
  private let loop: WatchLoop

  /// Registers `sources` in `store` and starts watching them at once.
  /// - Parameter clock: seconds since 1970, moving with real time (tests may offset it).
  public init(
    store: any SubscriptionStore, puller: FeedPuller, sources: [String],
    options: SubscriptionPullOptions = SubscriptionPullOptions(),
    clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
    bufferLimit: Int = 1024
  ) throws(StoreError) {
    let (stream, continuation) = AsyncStream.makeStream(of: PullRecord.self)
    // The buffer `FeedPuller.records` uses: past the limit the watch starts no new pull, and
    // once the consumer is down to half it is told to carry on.
    let buffer = RecordStreamBuffer(continuation: continuation, limit: Swift.max(2, bufferLimit))
    let resumer = WatchResumer()
    let loop = WatchLoop(
      store: store, puller: puller, options: options, clock: clock, into: buffer,
      admits: {
        guard buffer.isBehind else { return true }
        if resumer.startWaiting() {
          buffer.whenCaughtUp { resumer.caughtUp() }
        }
        return false
      })
    resumer.set(loop)
    continuation.onTermination = { _ in
      buffer.terminate()
      loop.stop {}
    }
    records = PullRecordStream(stream: stream, buffer: buffer)
    self.loop = loop
    try loop.start(sources)
  }

  /// Starts watching more sources; new ones are due at once.
  public func add(_ sources: [String]) throws(StoreError) {
    try loop.add(sources)
  }

  /// Stops watching sources (a pull in flight finishes); their state stays in the store.
  public func remove(_ sources: [String]) {
    loop.remove(sources)
  }

  /// What the watch holds and has done.
  public var statistics: WatchStatistics { loop.statistics() }

  /// Stops the watch and returns once every pull in flight has ended and been recorded.
  public func stop() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      loop.stop { done.resume() }
    }
  }

  /// Starts reading. Only one iterator reads a watch: records are delivered once.
  public func makeAsyncIterator() -> AsyncIterator {
    records.makeAsyncIterator()
  }
}

/// Resumes the watch once its consumer has caught up, asking the buffer once per hold-back.
private final class WatchResumer: Sendable {
  /// Weak: the loop holds this object (through its `admits`), not the other way round.
  private struct State {
    weak var loop: WatchLoop?
    var waiting = false
  }

  private let state = TSanVisibleMutex(State())

  func set(_ loop: WatchLoop) { state.withLock { $0.loop = loop } }

  /// True when this hold-back is the first since the last catch-up: the caller registers it.
  func startWaiting() -> Bool {
    state.withLock { state in
      defer { state.waiting = true }
      return !state.waiting
    }
  }

  func caughtUp() {
    let loop = state.withLock { state in
      state.waiting = false
      return state.loop
    }
    loop?.resume()
  }
}
