import Dispatch
import FeedPull
import FeedPullSupport
import Foundation
import HTTPWorker

extension SubscribedPull {
  /// A `--due` pass against a store shared by many workers: instead of taking every due source
  /// at once, it claims as many as it has free transfer slots, starts them, and claims more as
  /// each one ends, until nothing due is left; so N workers started together share a pass.
  ///
  /// When the store fails (a lost database), it stops claiming, lets what it holds finish (their
  /// ends are written; a state that could not be recorded is a store failure, and its items
  /// come again next time: never reported as seen unrecorded), then asks again with a growing
  /// pause, for up to `reconnectFor` seconds before it gives up with the store's error.
  ///
  /// `stopRequested` (a signal) and `outputFailed` stop it: what it holds is cancelled and
  /// nothing more is claimed. A cancelled `onStart` batch stops it too.
  public func runClaiming(
    registering sources: [String], slots: Int, into sink: any PullRecordSink,
    onStart: (PullBatch) -> Void = { _ in },
    outputFailed: @escaping @Sendable () -> Bool = { false },
    stopRequested: @escaping @Sendable () -> Bool = { false },
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
    // Sources waiting for their host's shared start time (they hold a slot meanwhile).
    var waiting: [(at: Double, tracker: SourceTracker)] = []
    let pacing = store as? PostgresSubscriptionStore
    let hostDelay = Self.seconds(puller.configuration.hostDelay)

    func start(_ trackers: [String: SourceTracker], _ sources: [PullSource]) {
      let gate = SubscriptionGate(
        inner: counting, store: store, options: options, clock: clock,
        outputFailed: outputFailed)
      // A Retry-After a source sets is in the store when it ends; later claims read it there.
      for tracker in trackers.values { gate.add(tracker) { _, _ in } }
      gates.append(gate)
      let batch = puller.start(sources, into: gate, keeping: .failedOnly) { _ in }
      batches.append(batch)
      onStart(batch)
    }
    /// Waits for a source to end, or for the first waiting one's start time.
    func waitForOneEnd() {
      guard let first = waiting.map(\.at).min() else {
        ended.wait()
        inFlight -= 1
        return
      }
      let seconds = max(0, first - ProcessInfo.processInfo.systemUptime)
      if ended.wait(timeout: .now() + seconds) == .success { inFlight -= 1 }
    }
    while true {
      // Whoever cancels cancels every batch, so the last one tells.
      if !stopping, stopRequested() || outputFailed() || batches.last?.isCancelled == true {
        stopping = true
        batches.forEach { $0.cancel() }
        // Never started: they give their slots and their leases back.
        inFlight -= waiting.count
        try? pacing?.releaseLeases(of: waiting.map(\.tracker.state.source))
        waiting = []
      }
      if stopping {
        while inFlight > 0 { waitForOneEnd() }
        break
      }
      let uptime = ProcessInfo.processInfo.systemUptime
      for entry in waiting where entry.at <= uptime {
        start([entry.tracker.state.requestURL: entry.tracker], [entry.tracker.pullSource])
      }
      waiting.removeAll { $0.at <= uptime }
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
            state: state, requestURL: state.requestURL, ledger: try store.ledger(of: state.source),
            unconditional: unconditional, now: now)
          if let pacing, hostDelay > 0 {
            // `--host-delay` across workers: the host's next start time, from the database.
            let host = PoliteHost.key(forURL: state.requestURL) ?? state.requestURL
            let wait = try pacing.reserveStart(host: host, spacing: hostDelay)
            if wait > 0.001 {
              waiting.append((ProcessInfo.processInfo.systemUptime + wait, tracker))
              inFlight += 1
              continue
            }
          }
          trackers[state.requestURL] = tracker
          started.append(tracker.pullSource)
        }
        lostSince = nil
        pause = 0.1
        if !started.isEmpty {
          inFlight += started.count
          start(trackers, started)
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
        if stopRequested() { break }
        if lostSince == nil { lostSince = now }
        // The backoff before asking the database again: a timed wait on the same semaphore
        // that ends signal (nothing is in flight, so only the time ends it).
        _ = ended.wait(timeout: .now() + pause)
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

extension SubscribedPull {
  static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
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
