import Dispatch
import FeedPull

extension SubscriptionRun {
  /// Starts a claimed source's pull through a gate of its own (after its host's shared start
  /// time, on a store that spaces starts across processes); or, when the consumer is behind,
  /// gives it back to the scheduler, which waits for the consumer to catch up.
  func start(_ planned: PlannedPull) -> SchedulerEvent? {
    if let admission = admission, !admission.admits() {
      let first = state.withLock { state in
        defer { state.waitingForConsumer = true }
        return !state.waitingForConsumer
      }
      if first {
        admission.whenCaughtUp { [weak self] in
          guard let self else { return }
          self.exclusion.async {
            self.state.withLock { $0.waitingForConsumer = false }
            self.feed(.resumed)
          }
        }
      }
      return .startRefused(planned.state)
    }
    let gate = SourceGate(planned, run: self)
    let hostDelay = puller.configuration.hostDelay
    if let pacing = pacing, hostDelay > .zero {
      let host = PoliteHost.key(forURL: planned.state.requestURL) ?? planned.state.requestURL
      // A failed reservation costs only the shared spacing; the worker's own still holds.
      let wait = (try? pacing.reserveStart(host: host, spacing: hostDelay)) ?? .zero
      if wait > .milliseconds(1) {
        let nanoseconds =
          Int(wait.components.seconds) * 1_000_000_000
          + Int(wait.components.attoseconds / 1_000_000_000)
        exclusion.asyncAfter(.nanoseconds(nanoseconds)) { self.launch(gate) }
        return nil
      }
    }
    launch(gate)
    return nil
  }

  private func launch(_ gate: SourceGate) {
    let source = gate.planned.state.source
    let batch = puller.start(gate.pullSource, into: gate, endRunner: self)
    let cancelling = state.withLock { state in
      state.batches[source] = batch
      return state.cancelling
    }
    if cancelling { batch.cancel() }
  }

  /// Writes the `end`s of sources not pulled, in order, on the skipped ends' own thread
  /// (`SkippedEndWriter`): one call to the sink for each run of `ok` ones (`not_due`,
  /// `in_progress`: compact, no `EndRecord` made) and of failed ones (`deferred`, `cancelled`:
  /// as records); and one count for the batch here (a million `not_due` ends of `--due -i` paid
  /// a lock and a call each, then an `EndRecord` each). `mayWait` false on the worker's thread,
  /// which must not wait for the writer to catch up (`SkippedEndWriter.write`).
  func write(_ skipped: [SkippedEnd], mayWait: Bool = true) {
    skippedEnds.write(skipped, mayWait: mayWait)
    state.withLock { state in
      state.summary.ends += skipped.count
      for index in skipped.indices {
        // As `count` does for an end not pulled: only a failed one adds to the statistics.
        guard let kind = skipped[index].errorKind else { continue }
        state.summary.failedEnds += 1
        state.statistics.errors[kind.rawValue, default: 0] += 1
      }
    }
    for end in skipped where end.why == .notDue {
      if let until = end.nextCheckAt {
        notices(.notDue(source: end.source, until: until, reason: end.reason))
      }
    }
  }

  /// A pull's end from its gate (any thread): its slot is given back to the scheduler at once
  /// (the next pull starts without waiting for a commit), and the end is queued for the store;
  /// the first of a batch asks the queue to record them all a moment later, so that the ends
  /// arriving meanwhile share its transaction (a write transaction per source was half of what
  /// a 304 cost the store). On the worker's thread (`runEnd`) the slot is given back there,
  /// right after.
  func ended(_ finished: FinishedPull) {
    let (firstEnd, firstTransfer) = endsWaiting.withLock { waiting in
      waiting.ends.append(finished)
      waiting.transfers.append((finished.end.source, finished.ended.hostHold))
      return (waiting.ends.count == 1, waiting.transfers.count == 1)
    }
    if firstTransfer && !exclusion.isRunningHere { exclusion.async { self.freeSlots() } }
    if firstEnd {
      // On the queue, not holding the run: the worker may take ends while the store writes.
      exclusion.queue.asyncAfter(deadline: .now() + Self.groupCommitDelay) {
        self.recordEnds(holdingRun: false)
      }
    }
  }

  /// How long the first end of a batch waits for others to share its transaction: its slot is
  /// free meanwhile, so the wait costs the run no time, only the end record's latency (and the
  /// last batch of a pass is recorded as soon as nothing is in flight). Longer batches write
  /// each page of the state once for more sources: a first pull of 1,000 feeds wrote 5.0 MB of
  /// WAL with 5 ms, 2.8 MB with 20 ms.
  static let groupCommitDelay = DispatchTimeInterval.milliseconds(20)

  /// Tells the scheduler of every transfer that ended since the last call; with `storeAllowed`
  /// false (on the worker's thread), what needs the store goes to the queue.
  private func freeSlots(storeAllowed: Bool = true) {
    let transfers = endsWaiting.withLock { waiting in
      defer { waiting.transfers = [] }
      return waiting.transfers
    }
    for (source, hostHold) in transfers {
      feed(.transferEnded(source: source, hostHold: hostHold), storeAllowed: storeAllowed)
    }
    // Nothing else will end soon: no reason to wait for company.
    if state.withLock({ $0.scheduler.pullsInFlight == 0 }) {
      if storeAllowed {
        recordEnds(holdingRun: true)
      } else {
        exclusion.queue.async { self.recordEnds(holdingRun: false) }
      }
    }
  }

  /// Records every end waiting in one transaction (a group commit: ends that arrive while one
  /// is written wait for the next), then writes their `end` records, then tells the scheduler.
  /// On the queue, which alone calls the store; the transaction is written without holding the
  /// run (`holdingRun` false), so that the worker's thread goes on taking 304s meanwhile (while
  /// the queue held the run through a commit, every end in that time went to the queue instead),
  /// and the records and the scheduler are then handled holding it.
  private func recordEnds(holdingRun: Bool) {
    let batch = endsWaiting.withLock { waiting in
      defer { waiting.ends = [] }
      return waiting.ends
    }
    guard !batch.isEmpty else { return }
    let outputFailed = state.withLock { $0.outputFailed }
    var failure: StoreError?
    if !outputFailed {
      let outcomes = batch.compactMap(\.outcome)
      do throws(StoreError) {
        try leasing.record(outcomes)
      } catch {
        failure = error
      }
    }
    if holdingRun {
      report(batch, failure: failure, outputFailed: outputFailed)
    } else {
      exclusion.exclusively { report(batch, failure: failure, outputFailed: outputFailed) }
    }
  }

  /// Writes the `end` records of a recorded batch and tells the scheduler; holding the run.
  private func report(_ batch: [FinishedPull], failure: StoreError?, outputFailed: Bool) {
    var ended: [PullEnd] = []
    for finished in batch {
      var schedulerEnd = finished.ended
      if let error = finished.failure ?? (finished.outcome == nil ? nil : failure),
        !outputFailed
      {
        schedulerEnd.nextCheckAt = nil
        state.withLock { state in
          state.summary.recordFailures += 1
          if state.summary.recordErrors.count < 3 { state.summary.recordErrors.append(error) }
        }
        notices(.recordFailed(error))
      }
      // Read once: each read of the finished pull's property copied the record.
      let end = finished.end
      sink.receive(.end(end))
      count(end, pulled: true)
      state.withLock { _ = $0.batches.removeValue(forKey: end.source) }
      ended.append(schedulerEnd)
    }
    sink.flush()
    for end in ended { feed(.pullEnded(end)) }
  }

  private func count(_ end: EndRecord, pulled: Bool) {
    state.withLock { state in
      state.summary.ends += 1
      if !end.ok { state.summary.failedEnds += 1 }
      if pulled || !end.ok {
        state.statistics.pulls += pulled ? 1 : 0
        state.statistics.items += end.items
        state.statistics.bytes += end.bytes
        if let kind = end.error?.kind { state.statistics.errors[kind.rawValue, default: 0] += 1 }
      }
    }
  }
}

extension SubscriptionRun: BodilessEndRunner {
  /// A 304's end (or an error before any byte), on the worker's thread: carried out here when
  /// no step of the run is under way, its slot given back and the next pull started at once;
  /// otherwise on the queue, as any end.
  package func runEnd(_ work: @escaping @Sendable () -> Void) {
    let ranHere = exclusion.runHereIfFree {
      work()
      freeSlots(storeAllowed: false)
    }
    if !ranHere { exclusion.async(work) }
  }
}
