import Dispatch
import FeedPull
import FeedPullSupport
import HTTPWorker

/// The engine of `feedpull --watch` and `FeedWatcher`: it holds each watched source's next
/// check in a `WatchSchedule`, sleeps on ONE dispatch timer armed to the earliest of them, and
/// when it fires starts the due sources a few at a time, as transfer slots free, never a whole
/// pass at once. Each source's end is recorded in the store (through a `SubscriptionGate` of its
/// own, so nothing accumulates across pulls) and the source goes back on the schedule at its
/// new `next_check_at`. Between checks nothing runs: no tick, no polling.
///
/// Every decision is taken on one serial queue; the methods may be called from any thread.
public final class WatchLoop: Sendable {
  private struct State {
    var schedule = WatchSchedule()
    /// Sources the watch holds (the list), whether scheduled or in flight.
    var listed = Set<String>()
    /// Sources being pulled, with their batch (to cancel them when the watch stops).
    var inFlight: [String: PullBatch] = [:]
    var statistics = WatchStatistics()
    var started = false
    var stopping = false
    var onStopped: [@Sendable () -> Void] = []
    /// The time the timer is armed for; nil while disarmed.
    var armedFor: Int64?
    /// True while `admits` holds new pulls back: the timer stays disarmed until `resume()`.
    var held = false
  }

  private let store: any SubscriptionStore
  private let puller: FeedPuller
  private let options: SubscriptionPullOptions
  private let clock: @Sendable () -> Int64
  private let sink: any PullRecordSink
  private let outputFailed: @Sendable () -> Bool
  private let onStoreFailure: @Sendable (StoreError) -> Void
  private let slots: Int
  private let queue = DispatchQueue(label: "feedpull.watch")
  private let timer: TSanVisibleMutex<any DispatchSourceTimer>
  private let state = TSanVisibleMutex(State())
  /// Asked before each start: false holds new pulls back (a consumer that fell behind).
  private let admits: @Sendable () -> Bool

  /// - Parameters:
  ///   - clock: seconds since 1970; the timer sleeps for the difference between a due time and
  ///     it, so a test clock must move at the pace of real time (an offset, not a fixed value).
  ///   - transfersAtOnce: sources pulled at once (default: the puller's transfer limit).
  ///   - admits: asked before each start; when it says no, call `resume()` once it would say yes.
  ///   - outputFailed: true once the output stopped taking records: nothing more is recorded.
  ///   - onStoreFailure: a source's end could not be stored (its items will come again).
  public init(
    store: any SubscriptionStore, puller: FeedPuller, options: SubscriptionPullOptions,
    clock: @escaping @Sendable () -> Int64, into sink: any PullRecordSink,
    transfersAtOnce: Int? = nil,
    admits: @escaping @Sendable () -> Bool = { true },
    outputFailed: @escaping @Sendable () -> Bool = { false },
    onStoreFailure: @escaping @Sendable (StoreError) -> Void = { _ in }
  ) {
    self.store = store
    self.puller = puller
    self.options = options
    self.clock = clock
    self.sink = sink
    self.admits = admits
    self.outputFailed = outputFailed
    self.onStoreFailure = onStoreFailure
    slots = max(1, transfersAtOnce ?? puller.configuration.maxConcurrentTransfers)
    let timer = DispatchSource.makeTimerSource(queue: queue)
    self.timer = TSanVisibleMutex(timer)
    // Active from the start, asleep until `start` arms it: dispatch traps when a source that
    // was never activated is released (a watch whose store failed at start).
    self.timer.withLock { timer in
      timer.setEventHandler { [weak self] in self?.pump() }
      timer.schedule(deadline: .distantFuture)
      timer.activate()
    }
  }

  /// Registers `sources` in the store (new ones due at once), reads when each is next due, and
  /// starts the watch. Throws when the store cannot be read; call it once.
  public func start(_ sources: [String]) throws(StoreError) {
    let schedule = try scheduleOf(sources, dueAtOnce: false)
    queue.sync {
      state.withLock { state in
        for (source, due) in schedule {
          state.listed.insert(source)
          state.schedule.set(source, due: due)
        }
        state.started = true
      }
      pump()
    }
  }

  /// Adds sources while the watch runs: new ones are due at once.
  public func add(_ sources: [String]) throws(StoreError) {
    // Which ones are new is decided on the queue, after any removal asked for before.
    let schedule = try scheduleOf(sources, dueAtOnce: true)
    queue.async {
      self.state.withLock { state in
        guard !state.stopping else { return }
        for (source, due) in schedule where state.listed.insert(source).inserted {
          state.schedule.set(source, due: due)
        }
      }
      self.pump()
    }
  }

  /// Stops watching `sources`: they are no longer pulled (one in flight finishes), and what the
  /// store holds of them stays.
  public func remove(_ sources: [String]) {
    queue.async {
      self.state.withLock { state in
        for source in sources {
          state.listed.remove(source)
          state.schedule.remove(source)
        }
      }
      self.pump()
    }
  }

  /// Makes `sources` the watched list (a re-read subscription list): adds the new ones and
  /// removes those no longer in it.
  public func replace(with sources: [String]) throws(StoreError) {
    let wanted = Set(sources)
    let known = state.withLock { $0.listed }
    remove(Array(known.subtracting(wanted)))
    try add(sources)
  }

  /// Wakes the loop after `admits` said no and would now say yes.
  public func resume() {
    queue.async {
      self.state.withLock { $0.held = false }
      self.pump()
    }
  }

  /// Stops the watch: no more pulls start, those in flight are cancelled (each ends
  /// `cancelled`, recorded and written like any end), and `completion` runs once the last has
  /// ended. Safe more than once; every completion runs.
  public func stop(completion: @escaping @Sendable () -> Void) {
    queue.async {
      let (batches, finished) = self.state.withLock { state in
        state.stopping = true
        state.onStopped.append(completion)
        return (Array(state.inFlight.values), state.inFlight.isEmpty)
      }
      self.timer.withLock { $0.cancel() }
      for batch in batches { batch.cancel() }
      if finished { self.finishStopping() }
    }
  }

  /// The watch as it is now.
  public func statistics() -> WatchStatistics {
    let now = clock()
    return state.withLock { state in
      var statistics = state.statistics
      statistics.sources = state.listed.count
      statistics.inFlight = state.inFlight.count
      statistics.due = state.schedule.dueCount(now: now)
      statistics.nextDue = state.schedule.earliest()
      return statistics
    }
  }

  /// Each source's next due time from the store (registering new ones); at once for
  /// `dueAtOnce`. Gone sources are scheduled too: `begin` says they are gone when they come up.
  private func scheduleOf(_ sources: [String], dueAtOnce: Bool) throws(StoreError) -> [(
    String, Int64
  )] {
    var unique = Set<String>()
    let sources = sources.filter { unique.insert($0).inserted }
    try store.register(sources)
    let times = dueAtOnce ? [:] : try store.nextCheckTimes(of: sources)
    return sources.map { ($0, times[$0] ?? 0) }
  }

  /// Starts what is due while slots are free, then sleeps until the next due time. On the queue.
  private func pump() {
    let now = clock()
    while true {
      let next: String? = state.withLock { state in
        guard state.started, !state.stopping, !state.held, state.inFlight.count < slots else {
          return nil
        }
        while let source = state.schedule.popDue(now: now) {
          // Removed and added again while its pull ran: that pull's end puts it back.
          if state.inFlight[source] == nil { return source }
        }
        return nil
      }
      guard let source = next else { break }
      guard admits() else {
        // Back on the schedule as it was; `resume()` comes back for it.
        state.withLock { state in
          state.schedule.set(source, due: now)
          state.held = true
        }
        break
      }
      begin(source, now: now)
    }
    arm(now: now)
  }

  /// Arms the one timer for the earliest due time, or disarms it while slots are full or
  /// nothing is scheduled (an end calls `pump` again).
  private func arm(now: Int64) {
    let target: Int64? = state.withLock { state in
      guard !state.stopping, !state.held, state.inFlight.count < slots else { return nil }
      return state.schedule.earliest()
    }
    let changed = state.withLock { state in
      defer { state.armedFor = target }
      return state.armedFor != target
    }
    guard changed else { return }
    timer.withLock { timer in
      guard let target else {
        timer.schedule(deadline: .distantFuture)
        return
      }
      // Whole seconds, never early: a timer that fires before its time only re-arms.
      let delay = max(0, target - now)
      timer.schedule(
        wallDeadline: .now() + .seconds(Int(min(delay, 366 * 86_400))), leeway: .milliseconds(100))
    }
  }

  /// Starts one due source, or defers it (its host asked to wait). On the queue.
  private func begin(_ source: String, now: Int64) {
    let known: SubscriptionState?
    let hold: Int64?
    let ledger: [RememberedItem]
    do throws(StoreError) {
      known = try store.state(of: source)
      let url = known?.requestURL ?? source
      hold = try store.hostHold(PoliteHost.key(forURL: url) ?? url)
      ledger = try store.ledger(of: source)
    } catch {
      onStoreFailure(error)
      reschedule(source, at: now + options.schedule.minInterval)
      return
    }
    let current = known ?? SubscriptionState(source: source)
    if current.gone && !options.force {
      // Gone meanwhile (a 410 seen by another worker): it stays off the schedule.
      let end = deferredEnd(current, hold: nil)
      sink.receive(.end(end))
      sink.flush()
      count(end)
      return
    }
    if current.nextCheckAt > now {
      // Another worker on a shared store pulled it meanwhile.
      reschedule(source, at: current.nextCheckAt)
      return
    }
    if !options.force, let hold, hold > now {
      let end = deferredEnd(current, hold: hold)
      sink.receive(.end(end))
      sink.flush()
      count(end)
      reschedule(source, at: max(hold, current.nextCheckAt))
      return
    }
    let unconditional =
      now - (current.lastUnconditionalAt ?? Int64.min / 2) >= options.unconditionalEvery
    let tracker = SourceTracker(
      state: current, requestURL: current.requestURL, ledger: ledger,
      unconditional: unconditional, now: now)
    let gate = SubscriptionGate(
      inner: sink, store: store, options: options, clock: clock, outputFailed: outputFailed)
    // A Retry-After this pull sets is in the store when the source ends; the watch reads the
    // hold from there when the host's next source comes up.
    gate.add(tracker) { _, _ in }
    // The completion may run before `start` returns; `ended` runs on this queue, after this.
    let batch = puller.start([tracker.pullSource], into: gate, keeping: .failedOnly) {
      [weak self] _ in
      guard let self else { return }
      self.queue.async { self.ended(source, gate: gate) }
    }
    state.withLock { $0.inFlight[source] = batch }
  }

  /// A source's pull has ended: count it, report a failed store write, and put it back on the
  /// schedule at its next check. On the queue.
  private func ended(_ source: String, gate: SubscriptionGate) {
    for failure in gate.failures { onStoreFailure(failure) }
    let now = clock()
    let end = gate.ends.first
    if let end { count(end) }
    let stopping = state.withLock { state in
      state.inFlight[source] = nil
      return state.stopping
    }
    if stopping {
      if state.withLock({ $0.inFlight.isEmpty }) { finishStopping() }
      return
    }
    if end?.error?.kind == .deferred && end?.nextCheckReason != CheckReason.retryAfter.rawValue {
      pump()  // gone: off the schedule
      return
    }
    // Never sooner than a second: a schedule that says "now" again must not spin.
    let next = end?.nextCheckAt ?? now + options.schedule.minInterval
    reschedule(source, at: max(next, now + 1))
    pump()
  }

  private func reschedule(_ source: String, at due: Int64) {
    state.withLock { state in
      guard state.listed.contains(source), !state.stopping else { return }
      state.schedule.set(source, due: due)
    }
  }

  private func count(_ end: EndRecord) {
    state.withLock { state in
      state.statistics.pulls += 1
      state.statistics.items += end.items
      state.statistics.bytes += end.bytes
      if let kind = end.error?.kind { state.statistics.errors[kind.rawValue, default: 0] += 1 }
    }
  }

  private func finishStopping() {
    let completions = state.withLock { state in
      defer { state.onStopped = [] }
      return state.onStopped
    }
    for completion in completions { completion() }
  }

  /// The `deferred` end of a source not requested now: gone, or its host held until `hold`.
  private func deferredEnd(_ state: SubscriptionState, hold: Int64?) -> EndRecord {
    var end = EndRecord(source: state.source)
    end.errorsInRow = state.errorsInRow
    end.movedTo = state.movedTo
    if let hold {
      let host = PoliteHost.key(forURL: state.requestURL) ?? state.requestURL
      end.error = PullError(
        kind: .deferred, message: "\(host) asked to wait (Retry-After) until the next check")
      end.nextCheckAt = max(hold, state.nextCheckAt)
      end.nextCheckReason = CheckReason.retryAfter.rawValue
    } else {
      end.error = PullError(
        kind: .deferred, message: "the source is gone (410); --force pulls it again")
      end.nextCheckAt = state.nextCheckAt
      end.nextCheckReason = (state.nextCheckReason ?? .default).rawValue
    }
    return end
  }
}
