import Dispatch
import FeedPull
import FeedPullSupport
import Foundation

extension SubscribedPull {
  /// A `--due` pass against a store shared by many workers: instead of taking every due source
  /// at once, it claims as many as it has free transfer slots, starts them, and claims more as
  /// each one ends, until nothing due is left; so N workers started together share a pass.
  ///
  /// When the store fails (a lost database), it stops claiming, lets what it holds finish (their
  /// ends are written; a state that could not be recorded is a store failure, and its items
  /// come again next time: never reported as seen unrecorded), then asks again with a growing
  /// pause, for up to `reconnectFor` seconds before it gives up with the store's error.
  public func runClaiming(
    registering sources: [String], slots: Int, into sink: any PullRecordSink,
    onStart: (PullBatch) -> Void = { _ in },
    outputFailed: @escaping @Sendable () -> Bool = { false },
    reconnectFor: Double = 120
  ) throws(StoreError) -> Result {
    let slots = max(1, slots)
    let ended = DispatchSemaphore(value: 0)
    let counting = EndSignallingSink(inner: sink, ended: ended)
    var gates: [SubscriptionGate] = []
    var batches: [PullBatch] = []
    var deferred: [EndRecord] = []
    var inFlight = 0
    var lostSince: Double?
    var pause = 0.1
    var registered = sources.isEmpty
    var stopping = false

    func waitForOneEnd() {
      ended.wait()
      inFlight -= 1
    }
    while true {
      if !stopping, outputFailed() || batches.contains(where: \.isCancelled) {
        stopping = true
        batches.forEach { $0.cancel() }
      }
      if stopping {
        while inFlight > 0 { waitForOneEnd() }
        break
      }
      let free = slots - inFlight
      guard free > 0 else {
        waitForOneEnd()
        continue
      }
      var claimed: [SubscriptionState] = []
      var started: [PullSource] = []
      do throws(StoreError) {
        if !registered {
          try store.register(sources)
          registered = true
        }
        let now = clock()
        claimed = try store.claimDue(now: now, limit: free)
        var trackers: [String: SourceTracker] = [:]
        for state in claimed {
          if let end = try deferral(of: state, now: now) {
            deferred.append(end)
            sink.receive(.end(end))
            continue
          }
          guard trackers[state.requestURL] == nil else { continue }
          let unconditional =
            now - (state.lastUnconditionalAt ?? Int64.min / 2) >= options.unconditionalEvery
          let tracker = SourceTracker(
            state: state, ledger: try store.ledger(of: state.source),
            unconditional: unconditional, now: now)
          trackers[state.requestURL] = tracker
          started.append(tracker.pullSource)
        }
        lostSince = nil
        pause = 0.1
        if !started.isEmpty {
          let gate = SubscriptionGate(
            inner: counting, trackers: trackers, store: store, options: options, clock: clock,
            outputFailed: outputFailed)
          gates.append(gate)
          inFlight += started.count
          let batch = puller.start(started, into: gate, keeping: .failedOnly) { _ in }
          batches.append(batch)
          onStart(batch)
        }
      } catch {
        // The store is gone: finish what is held, then try again after a pause. Sources
        // claimed but not started keep their lease until it runs out.
        if inFlight > 0 {
          waitForOneEnd()
          continue
        }
        let now = ProcessInfo.processInfo.systemUptime
        if let since = lostSince, now - since >= reconnectFor { throw error }
        if lostSince == nil { lostSince = now }
        Thread.sleep(forTimeInterval: pause)
        pause = min(pause * 2, 5)
        continue
      }
      if claimed.isEmpty {
        // Nothing due is left unclaimed: the pass ends when what this worker holds ends.
        if inFlight == 0 { break }
        waitForOneEnd()
      }
    }
    sink.flush()
    return Result(
      ends: deferred + gates.flatMap(\.ends), storeFailures: gates.flatMap(\.failures))
  }
}

/// Passes every record on and signals once per `end`, so that the claiming loop knows a
/// transfer slot is free.
private final class EndSignallingSink: PullRecordSink {
  private let inner: any PullRecordSink
  private let ended: DispatchSemaphore

  init(inner: any PullRecordSink, ended: DispatchSemaphore) {
    self.inner = inner
    self.ended = ended
  }

  func receive(_ record: PullRecord) {
    inner.receive(record)
    if case .end = record { ended.signal() }
  }

  func flush() { inner.flush() }
}
