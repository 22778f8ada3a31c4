import Dispatch
import FeedPull
import FeedPullSupport
import HTTPWorker

/// A pull that keeps state between runs: it picks the sources to pull (all given, or only the
/// due ones), ends held and gone ones as `deferred` without a request, pulls the rest through
/// a `FeedPuller` with their validators, and stores each source's end as it comes.
public final class SubscribedPull: Sendable {
  let store: any SubscriptionStore
  let puller: FeedPuller
  let options: SubscriptionPullOptions
  let clock: @Sendable () -> Int64
  private let running = TSanVisibleMutex<SourceFeeder?>(nil)
  private let cancelledFlag = TSanVisibleMutex(false)

  /// `clock`: seconds since 1970 (injected, so tests can move time).
  public init(
    store: any SubscriptionStore, puller: FeedPuller, options: SubscriptionPullOptions,
    clock: @escaping @Sendable () -> Int64
  ) {
    self.store = store
    self.puller = puller
    self.options = options
    self.clock = clock
  }

  /// Cancels the run in progress (from another thread, e.g. on SIGINT): sources in flight end
  /// `cancelled` (what they wrote is recorded as seen, and they stay due), sources not started
  /// end `cancelled` without a request. A run started afterwards is cancelled at once.
  public func cancel() {
    cancelledFlag.withLock { $0 = true }
    running.withLock { $0 }?.cancel()
  }

  private var isCancelled: Bool { cancelledFlag.withLock { $0 } }

  /// What a run did: every source's `end` (as written) and any state writes that failed
  /// (their items will be delivered again next time).
  public struct Result: Sendable {
    /// Every source's `end`, as written (deferred ones first).
    public var ends: [EndRecord]
    /// State writes that failed: those sources' items come again on the next run.
    public var storeFailures: [StoreError]
  }

  /// Pulls `sources` into `sink` and waits for every end; nil `sources` with `onlyDue`: every
  /// due source the store holds. `outputFailed` says whether the output has
  /// stopped accepting records: then nothing more is recorded as seen.
  public func run(
    _ sources: [String]?, into sink: any PullRecordSink,
    outputFailed: @escaping @Sendable () -> Bool = { false }
  ) throws(StoreError) -> Result {
    let now = clock()
    var unique: [String] = []
    var listed = Set<String>()
    for source in sources ?? [] where listed.insert(source).inserted { unique.append(source) }
    try store.register(unique)
    var states: [SubscriptionState] = []
    if options.onlyDue {
      states = try store.claimDue(now: now, limit: Int.max)
      if sources != nil { states = states.filter { listed.contains($0.source) } }
    } else {
      for source in unique {
        states.append(try store.state(of: source) ?? SubscriptionState(source: source))
      }
    }
    var deferred: [EndRecord] = []
    var planned: [SourceFeeder.Planned] = []
    var requested = Set<String>()
    for state in states {
      if let end = try deferral(of: state, now: now) {
        deferred.append(end)
        continue
      }
      // Records come back under the URL requested: two sources must not request one URL
      // (a source moved to another one that is also subscribed pulls its own URL).
      guard let url = [state.requestURL, state.source].first(where: { !requested.contains($0) })
      else { continue }
      requested.insert(url)
      planned.append(SourceFeeder.Planned(state: state, url: url))
    }
    for end in deferred {
      sink.receive(.end(end))
    }
    sink.flush()
    let gate = SubscriptionGate(
      inner: sink, store: store, options: options, clock: clock, outputFailed: outputFailed)
    let feeder = SourceFeeder(
      planned, window: 2 * puller.configuration.maxConcurrentTransfers, now: now,
      force: options.force,
      launch: { [store, puller, options] planned, feeder in
        let state = planned.state
        let ledger: [RememberedItem]
        do throws(StoreError) {
          ledger = try store.ledger(of: state.source)
        } catch {
          gate.fail(state, error)
          feeder.sourceEnded()
          return
        }
        let unconditional =
          now - (state.lastUnconditionalAt ?? Int64.min / 2) >= options.unconditionalEvery
        let tracker = SourceTracker(
          state: state, requestURL: planned.url, ledger: ledger, unconditional: unconditional,
          now: now)
        gate.add(tracker) { host, until in feeder.hold(host, until: until) }
        feeder.started(
          puller.start([tracker.pullSource], into: gate) { _ in feeder.sourceEnded() })
      },
      deferSource: { planned, until in
        guard let until else {
          var end = EndRecord(source: planned.state.source)
          end.error = PullError(kind: .cancelled, message: "cancelled before it started")
          return gate.writeDeferred(end)
        }
        gate.writeDeferred(Self.heldEnd(of: planned.state, host: planned.url, until: until))
      })
    running.withLock { $0 = feeder }
    defer { running.withLock { $0 = nil } }
    if isCancelled { feeder.cancel() }
    feeder.run()
    return Result(ends: deferred + gate.ends, storeFailures: gate.failures)
  }

  /// The `deferred` end of a source not to be requested now: gone (410), or its host held by
  /// a Retry-After. Nil when it is to be pulled (always with `--force`).
  func deferral(of state: SubscriptionState, now: Int64) throws(StoreError) -> EndRecord? {
    guard !options.force else { return nil }
    var end = EndRecord(source: state.source)
    end.errorsInRow = state.errorsInRow
    end.movedTo = state.movedTo
    if state.gone {
      end.error = PullError(
        kind: .deferred, message: "the source is gone (410); --force pulls it again")
      end.nextCheckAt = state.nextCheckAt
      end.nextCheckReason = (state.nextCheckReason ?? .default).rawValue
      return end
    }
    let host = PoliteHost.key(forURL: state.requestURL) ?? state.requestURL
    guard let hold = try store.hostHold(host), hold > now else { return nil }
    return Self.heldEnd(of: state, host: state.requestURL, until: hold)
  }

  /// The `deferred` end of a source whose host (of `url`) asked to wait until `until`.
  static func heldEnd(of state: SubscriptionState, host url: String, until: Int64) -> EndRecord {
    var end = EndRecord(source: state.source)
    end.errorsInRow = state.errorsInRow
    end.movedTo = state.movedTo
    let host = (PoliteHost.key(forURL: url) ?? url)
    end.error = PullError(
      kind: .deferred, message: "\(host) asked to wait (Retry-After) until the next check")
    end.nextCheckAt = max(until, state.nextCheckAt)
    end.nextCheckReason = CheckReason.retryAfter.rawValue
    return end
  }
}
