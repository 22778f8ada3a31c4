import FeedPull
import FeedPullSupport

/// Watch mode for embedders: the records of new and updated items (and each pull's `feed` and
/// `end`) as an async sequence that never finishes by itself. It pulls each source when its
/// next check comes, as `feedpull watch` does (it is the same `SubscriptionRun`), on any store:
/// on one that other processes share, a source is pulled by whichever process claims it first.
/// It runs until the consuming task is cancelled (in-flight pulls then end `cancelled` and are
/// recorded; `stop()` waits for that).
///
/// ```swift
/// let watcher = FeedWatcher(store: try StoreLocation("state.db").open(), puller: puller,
///                           sources: urls)
/// for await record in watcher {
///   if case .item(let item) = record { show(item) }
/// }
/// ```
///
/// The list can change while it runs. A consumer that falls behind holds new pulls back once
/// `bufferLimit` records wait, so memory does not grow with a slow reader.
public final class FeedWatcher: AsyncSequence, Sendable {
  /// Every kind of record: a pull's `feed`, its new and updated items, its `end`.
  public typealias Element = PullRecord
  /// The same iterator as `FeedPuller.records`: each record taken frees a place in the buffer.
  public typealias AsyncIterator = PullRecordStream.AsyncIterator

  private let records: PullRecordStream
  private let run: SubscriptionRun
  private let listed: TSanVisibleMutex<SourceList>

  /// Starts watching `sources` in `store` at once (unknown ones are registered and due).
  /// - Parameters:
  ///   - options: the schedule's limits, `--all`, `--force` (`onlyDue` is implied).
  ///   - clock: the time the schedule runs on; it must move with real time (a test may offset
  ///     it, as `SubscriptionClock.starting(at:)` does).
  ///   - notices: what a person may want to know (when it sleeps until, a store that failed).
  public convenience init(
    store: any SubscriptionStore, puller: FeedPuller, sources: [String],
    options: SubscriptionPullOptions = SubscriptionPullOptions(),
    clock: SubscriptionClock = .system, bufferLimit: Int = 1024,
    notices: @escaping @Sendable (SubscriptionNotice) -> Void = { _ in }
  ) {
    var configuration = SubscriptionRun.Configuration(
      sources: .named(SourceList(sources)), watch: true)
    configuration.options = options
    configuration.clock = clock
    self.init(
      store: store, puller: puller, configuration: configuration, bufferLimit: bufferLimit,
      notices: notices)
  }

  /// Starts a watch as `configuration` says (named sources or every due source of a shared
  /// store); `configuration.watch` is implied.
  public init(
    store: any SubscriptionStore, puller: FeedPuller, configuration: SubscriptionRun.Configuration,
    bufferLimit: Int = 1024,
    notices: @escaping @Sendable (SubscriptionNotice) -> Void = { _ in }
  ) {
    var configuration = configuration
    configuration.watch = true
    let (stream, continuation) = AsyncStream.makeStream(of: PullRecord.self)
    // The buffer `FeedPuller.records` uses: past the limit the watch starts no new pull, and
    // once the consumer is down to half it is told to carry on.
    let buffer = RecordStreamBuffer(continuation: continuation, limit: Swift.max(2, bufferLimit))
    let run = SubscriptionRun(
      store: store, puller: puller, configuration: configuration, sink: buffer, notices: notices,
      admission: SubscriptionRun.Admission(
        admits: { !buffer.isBehind }, whenCaughtUp: { buffer.whenCaughtUp($0) }))
    continuation.onTermination = { _ in
      buffer.terminate()
      run.stop()
    }
    records = PullRecordStream(stream: stream, buffer: buffer)
    self.run = run
    if case .named(let sources) = configuration.sources {
      listed = TSanVisibleMutex(sources)
    } else {
      listed = TSanVisibleMutex(SourceList())
    }
    run.start()
  }

  /// Starts watching more sources; new ones are due at once.
  public func add(_ sources: [String]) {
    let all = listed.withLock { listed in
      for source in sources { listed.append(source) }
      return listed
    }
    run.reload(all)
  }

  /// Stops watching sources (a pull in flight finishes); their state stays in the store.
  public func remove(_ sources: [String]) {
    let gone = Set(sources)
    let all = listed.withLock { listed in
      listed = SourceList(listed.filter { !gone.contains($0) })
      return listed
    }
    run.reload(all)
  }

  /// What the watch holds and has done.
  public var statistics: WatchStatistics { run.statistics }

  /// Stops the watch and returns once every pull in flight has ended and been recorded, and
  /// the store checkpointed.
  public func stop() async {
    run.stop()
    _ = await run.finished()
  }

  /// Starts reading. Only one iterator reads a watch: records are delivered once.
  public func makeAsyncIterator() -> AsyncIterator {
    records.makeAsyncIterator()
  }
}
