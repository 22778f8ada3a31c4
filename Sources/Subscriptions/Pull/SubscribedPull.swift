import Dispatch
import FeedPull

/// A pull that keeps state between runs: it picks the sources to pull (all given, or only the
/// due ones), ends held and gone ones as `deferred` without a request, pulls the rest through
/// a `FeedPuller` with their validators, and stores each source's end as it comes.
public final class SubscribedPull: Sendable {
  let store: any SubscriptionStore
  let puller: FeedPuller
  let options: SubscriptionPullOptions
  let clock: @Sendable () -> Int64

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

  /// What a run did: every source's `end` (as written) and any state writes that failed
  /// (their items will be delivered again next time).
  public struct Result: Sendable {
    public var ends: [EndRecord]
    public var storeFailures: [StoreError]
  }

  /// Pulls `sources` into `sink` and waits for every end; nil `sources` with `onlyDue`: every
  /// due source the store holds. `onStart` gets the batch (to cancel it on a signal: its
  /// sources then end `cancelled` and stay due). `outputFailed` says whether the output has
  /// stopped accepting records: then nothing more is recorded as seen.
  public func run(
    _ sources: [String]?, into sink: any PullRecordSink,
    onStart: (PullBatch) -> Void = { _ in },
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
    var trackers: [String: SourceTracker] = [:]
    var order: [PullSource] = []
    for state in states {
      if let end = try deferral(of: state, now: now) {
        deferred.append(end)
        continue
      }
      guard trackers[state.requestURL] == nil else { continue }
      let unconditional =
        now - (state.lastUnconditionalAt ?? Int64.min / 2) >= options.unconditionalEvery
      let tracker = SourceTracker(
        state: state, ledger: try store.ledger(of: state.source), unconditional: unconditional,
        now: now)
      trackers[state.requestURL] = tracker
      order.append(tracker.pullSource)
    }
    for end in deferred {
      sink.receive(.end(end))
    }
    sink.flush()
    let gate = SubscriptionGate(
      inner: sink, trackers: trackers, store: store, options: options, clock: clock,
      outputFailed: outputFailed)
    let done = DispatchSemaphore(value: 0)
    onStart(puller.start(order, into: gate, keeping: .failedOnly) { _ in done.signal() })
    done.wait()
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
    end.error = PullError(
      kind: .deferred, message: "\(host) asked to wait (Retry-After) until the next check")
    end.nextCheckAt = max(hold, state.nextCheckAt)
    end.nextCheckReason = CheckReason.retryAfter.rawValue
    return end
  }
}
