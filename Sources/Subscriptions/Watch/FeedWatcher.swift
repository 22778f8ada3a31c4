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
  public typealias Element = PullRecord

  private let stream: AsyncStream<PullRecord>
  private let buffer: WatchRecordBuffer
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
    let buffer = WatchRecordBuffer(continuation: continuation, limit: Swift.max(2, bufferLimit))
    let loop = WatchLoop(
      store: store, puller: puller, options: options, clock: clock, into: buffer,
      admits: { !buffer.isBehind })
    buffer.onCaughtUp = { loop.resume() }
    continuation.onTermination = { _ in loop.stop {} }
    self.stream = stream
    self.buffer = buffer
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

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator(), buffer: buffer)
  }

  /// Hands out records and tells the watch when the consumer has caught up.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<PullRecord>.Iterator
    let buffer: WatchRecordBuffer

    public mutating func next() async -> PullRecord? {
      let record = await base.next()
      if record != nil { buffer.consumed() }
      return record
    }
  }
}

/// The records between the watch and its consumer, counted: past the limit the watch starts no
/// new pull, and once the consumer is down to half it is told to carry on.
final class WatchRecordBuffer: PullRecordSink {
  private struct State {
    var waiting = 0
    var onCaughtUp: (@Sendable () -> Void)?
  }

  private let continuation: AsyncStream<PullRecord>.Continuation
  private let limit: Int
  private let state = TSanVisibleMutex(State())

  init(continuation: AsyncStream<PullRecord>.Continuation, limit: Int) {
    self.continuation = continuation
    self.limit = limit
  }

  /// Called when the consumer has caught up after the buffer was behind.
  var onCaughtUp: (@Sendable () -> Void)? {
    get { state.withLock { $0.onCaughtUp } }
    set { state.withLock { $0.onCaughtUp = newValue } }
  }

  var isBehind: Bool { state.withLock { $0.waiting >= limit } }

  func receive(_ record: PullRecord) {
    state.withLock { $0.waiting += 1 }
    if case .terminated = continuation.yield(record) {
      state.withLock { $0.waiting -= 1 }
    }
  }

  func flush() {}

  func consumed() {
    let action = state.withLock { state -> (@Sendable () -> Void)? in
      state.waiting -= 1
      return state.waiting == limit / 2 ? state.onCaughtUp : nil
    }
    action?()
  }
}
