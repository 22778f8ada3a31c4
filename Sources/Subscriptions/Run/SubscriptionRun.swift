import Dispatch
import FeedPull
import FeedPullSupport

/// One run of the subscription scheduler over a store: a pass over named sources (`--state`), a
/// `--due` pass, a pass over every due source of the store, or a watch of any of them
/// (`Configuration`), on any store, shared or not. The command line's `--due` and `watch` and
/// `FeedWatcher` are thin users of it:
///
/// ```swift
/// var configuration = SubscriptionRun.Configuration(sources: .named(urls))
/// configuration.options.onlyDue = true
/// let run = SubscriptionRun(
///   store: try StoreLocation("state.db").open(), puller: puller,
///   configuration: configuration, into: JSONLinesWriter(fileDescriptor: 1))
/// let summary = run.run()       // blocks until the pass is done (or: await run.finished())
/// ```
///
/// Records go to the sink as they are parsed; each source's `end` is written once its state is
/// recorded (at least once: an item's identity is stored only after its record was flushed).
/// `stop()` cancels what is in flight (a pass writes a `cancelled` end for every source not yet
/// ended); `reload(_:)` gives a watch a new list. At its end (and on a clean stop) the store is
/// checkpointed, so that a SQLite file alone holds the whole state.
///
/// Threads: the decisions (`PullScheduler`) and every call to the store run on one serial queue
/// of the run's own, never on Swift's cooperative pool, but for the two jobs of a long list that
/// have threads of their own: the scan of a SQLite state's schedule (`ScheduleSnapshot`, through
/// a connection of its own) and the encoding of the `end`s of sources not pulled
/// (`SkippedEndWriter`). Records arrive from the puller's threads; the methods may be called
/// from any thread. The end of a pull that brought no body (a 304) is taken on the connection
/// worker's thread when the run is free (`RunExclusion`): the scheduler hears of it and the
/// next pull starts without a hop between threads, and what needs the store waits for the queue.
public final class SubscriptionRun: Sendable {
  /// Which sources a run pulls, when it ends, and how.
  public struct Configuration: Sendable {
    /// Which sources.
    public enum Sources: Sendable {
      /// These sources, each once, in order (new ones are registered in the store).
      case named(SourceList)
      /// Every due source of the store (`--due` with no SOURCE and no `-i`).
      case everyDueSource
    }

    /// Which sources.
    public var sources: Sources
    /// Run until stopped, pulling each source when it is due, instead of one pass.
    public var watch = false
    /// `--due`, `--all`, `--force` and the schedule's limits.
    public var options = SubscriptionPullOptions()
    /// Pulls at once; nil: the puller's transfer limit.
    public var transfersAtOnce: Int?
    /// Sources claimed per claim at least, when that many are left: the run holds leases on
    /// up to twice a claim (or twice the pulls at once, when more). A claim is one write
    /// transaction, and in a shared SQLite file each rewrites whole pages of the indexes: with
    /// claims of a slot's worth (8 sources at the default `-j`), a first pull of 1,000 sources
    /// wrote 5.9 times the state it left to the log, with 32 a claim 3.4 times. Lower it to
    /// spread a short pass more evenly over many workers; raise it for fewer transactions.
    public var claimAtLeast = 32
    /// Sources claimed per claim at most: claims grow from `claimAtLeast` towards this while
    /// pulls end fast enough that a claim's sources last less than `claimSpan` (a pass of 304s
    /// from a near server: claims of 32 cost it a store transaction and two wake-ups of the
    /// store's thread every few milliseconds; grown, 10,000 sources take 39 claims, not 312). Slow
    /// sources keep claims near `claimAtLeast`, so workers sharing a pass still share its end.
    /// Set it to `claimAtLeast` for claims of one size.
    public var claimAtMost = 256
    /// How long one claim's sources should last at the rate pulls have been ending.
    public var claimSpan: Duration = .milliseconds(250)
    /// The time the schedule runs on (the system's; a test sets another).
    public var clock = SubscriptionClock.system
    /// A pass whose store stays unreachable this long gives up with its error.
    public var storeGiveUp: Duration = .seconds(120)

    /// A run of `sources`; a watch when `watch`.
    public init(sources: Sources, watch: Bool = false) {
      self.sources = sources
      self.watch = watch
    }
  }

  /// What a run did.
  public struct Summary: Sendable {
    /// `end` records written.
    public var ends = 0
    /// Ends not `ok` (errors, `deferred`, `cancelled`).
    public var failedEnds = 0
    /// Source ends that could not be recorded: their items will be delivered again.
    public var recordFailures = 0
    /// The first record failures, for a message.
    public var recordErrors: [StoreError] = []
    /// The store's error when a pass gave up waiting for it.
    public var storeError: StoreError?
    /// Nothing failed: every end `ok`, every end recorded, the store reached.
    public var succeeded: Bool { failedEnds == 0 && recordFailures == 0 && storeError == nil }
  }

  struct Mutable {
    var scheduler: PullScheduler
    var batches: [String: PullBatch] = [:]
    var cancelling = false
    var outputFailed = false
    var waitingForConsumer = false
    var statistics = WatchStatistics()
    var summary = Summary()
    var finished = false
  }

  let store: any SubscriptionStore
  let leasing: any LeasingSubscriptionStore
  let pacing: (any HostPacingStore)?
  /// The claims of named sources (those a scan found not due answered without the store).
  let claims: ScheduleSnapshot
  let puller: FeedPuller
  let sink: any PullRecordSink
  /// The `end`s of sources not pulled, written on a thread of their own.
  let skippedEnds: SkippedEndWriter
  let options: SubscriptionPullOptions
  let clock: SubscriptionClock
  /// The run's serial queue, and the lock its every step holds.
  let exclusion = RunExclusion(label: "feedpull.subscriptions")
  let state: TSanVisibleMutex<Mutable>
  let notices: @Sendable (SubscriptionNotice) -> Void
  let admission: Admission?
  private let timer: TSanVisibleMutex<any DispatchSourceTimer>
  let endsWaiting = TSanVisibleMutex(EndsWaiting())
  private let done = DispatchGroup()
  private let origin = SubscriptionClock.monotonicNow()

  /// Pull ends not yet handled on the queue: transfers whose slots the scheduler has yet to get
  /// back, and ends the store has yet to record.
  struct EndsWaiting {
    var transfers: [(source: String, hostHold: PullEnd.HostHold?)] = []
    var ends: [FinishedPull] = []
  }

  /// A consumer that may fall behind (`FeedWatcher`): asked before each start; when it says no,
  /// `whenCaughtUp` is called once with what to do when it would say yes.
  struct Admission: Sendable {
    var admits: @Sendable () -> Bool
    var whenCaughtUp: @Sendable (@escaping @Sendable () -> Void) -> Void
  }

  /// A run over `store` with `puller`, writing records into `sink` and telling `notices` what a
  /// person may want to know (`-v`). Nothing happens until `start()` (or `run()`).
  public convenience init(
    store: any SubscriptionStore, puller: FeedPuller, configuration: Configuration,
    into sink: any PullRecordSink,
    notices: @escaping @Sendable (SubscriptionNotice) -> Void = { _ in }
  ) {
    self.init(
      store: store, puller: puller, configuration: configuration, sink: sink, notices: notices,
      admission: nil)
  }

  init(
    store: any SubscriptionStore, puller: FeedPuller, configuration: Configuration,
    sink: any PullRecordSink, notices: @escaping @Sendable (SubscriptionNotice) -> Void,
    admission: Admission?
  ) {
    self.store = store
    let leasing = (store as? any LeasingSubscriptionStore) ?? LocalLeases(store)
    self.leasing = leasing
    pacing = store as? any HostPacingStore
    self.puller = puller
    self.sink = sink
    skippedEnds = SkippedEndWriter(into: sink)
    options = configuration.options
    clock = configuration.clock
    self.notices = notices
    self.admission = admission
    var setup = PullScheduler.Configuration()
    var names = SourceList()
    switch configuration.sources {
    case .named(let sources):
      names = sources
    case .everyDueSource:
      setup.named = false
    }
    setup.watch = configuration.watch
    setup.onlyDue = configuration.options.onlyDue
    setup.force = configuration.options.force
    setup.slots = configuration.transfersAtOnce ?? puller.configuration.maxConcurrentTransfers
    setup.claimAtLeast = configuration.claimAtLeast
    setup.claimAtMost = configuration.claimAtMost
    setup.claimSpan = configuration.claimSpan
    setup.unconditionalEvery = configuration.options.unconditionalEvery
    setup.maxInterval = configuration.options.schedule.maxInterval
    setup.retryUnrecorded = configuration.options.schedule.minInterval
    setup.leaseRenewal = leasing is LocalLeases ? nil : leasing.leaseDuration / 3
    setup.storeGiveUp = configuration.storeGiveUp
    claims = ScheduleSnapshot(store: leasing, names: names)
    var mutable = Mutable(scheduler: PullScheduler(setup, names: names))
    mutable.statistics.sources = names.count
    state = TSanVisibleMutex(mutable)
    let timer = DispatchSource.makeTimerSource(queue: exclusion.queue)
    self.timer = TSanVisibleMutex(timer)
    done.enter()
    // Active from the start and asleep until armed: dispatch traps when a source that was
    // never activated is released.
    self.timer.withLock { timer in
      timer.setEventHandler { [weak self] in
        guard let self else { return }
        self.exclusion.exclusively { self.feed(.timer) }
      }
      timer.schedule(deadline: .distantFuture)
      timer.activate()
    }
  }

  /// Begins the run and returns at once.
  public func start() {
    exclusion.async { self.feed(.start) }
  }

  /// Waits (blocking the calling thread) until the run is over; for a command's main thread,
  /// never for a task of Swift concurrency (`finished()` is for those).
  public func wait() -> Summary {
    done.wait()
    return state.withLock { $0.summary }
  }

  /// Begins the run and waits until it is over (see `wait()`).
  public func run() -> Summary {
    start()
    return wait()
  }

  /// The summary once the run is over, without blocking a thread meanwhile.
  public func finished() async -> Summary {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      done.notify(queue: exclusion.queue) { continuation.resume() }
    }
    return state.withLock { $0.summary }
  }

  /// Stops: nothing more starts, pulls in flight are cancelled (each ends `cancelled`, recorded
  /// and written like any end), and a pass writes a `cancelled` end for every source it had not
  /// started. Safe from any thread, and more than once.
  public func stop() {
    exclusion.async { self.feed(.stop) }
  }

  /// The output stopped taking records (a closed pipe, a full disk): the run stops, and nothing
  /// more is recorded, since items not written must come again.
  public func outputFailed() {
    state.withLock { $0.outputFailed = true }
    exclusion.async { self.feed(.outputFailed) }
  }

  /// Makes `sources` the watched list (a re-read subscription list): new ones are looked at
  /// once, removed ones leave the schedule (one in flight finishes) and keep their state.
  public func reload(_ sources: [String]) {
    reload(SourceList(sources))
  }

  /// Makes `names` the watched list (see `reload(_:)` for an array).
  public func reload(_ names: SourceList) {
    exclusion.async {
      self.state.withLock { $0.statistics.sources = names.count }
      self.feed(.reload(names))
    }
  }

  /// What the run holds and has done.
  public var statistics: WatchStatistics {
    let now = clock.now
    return state.withLock { state in
      var statistics = state.statistics
      statistics.inFlight = state.scheduler.pullsInFlight
      statistics.due = state.scheduler.dueCount(at: now)
      statistics.nextDue = state.scheduler.nextDue()
      return statistics
    }
  }

  /// The scheduler's time now.
  private var time: SchedulerTime {
    SchedulerTime(clock: clock.now, elapsed: SubscriptionClock.monotonicNow() - origin)
  }

  /// Feeds `first` to the scheduler and carries out what it asks, feeding back the store's
  /// answers, until nothing is left to answer. Holding the run's lock (on its queue, or on the
  /// worker's thread with `storeAllowed` false: the first action that needs the store, and
  /// everything after it, then goes to the queue).
  func feed(_ first: SchedulerEvent, storeAllowed: Bool = true) {
    carryOut(events: [first], actions: [], storeAllowed: storeAllowed)
  }

  /// `feed`'s loop, resumable: `actions` left of an event already handled, then `events`.
  private func carryOut(
    events waiting: [SchedulerEvent], actions left: [SchedulerAction], storeAllowed: Bool
  ) {
    // Taken from the front as they are handled, and let go: a pass of a million names mostly
    // not due answers a thousand claims in this one loop.
    var events = FirstInQueue(waiting)
    var actions = left
    // The `.skip` actions in a row (a claim's batch of names not due), written as one.
    var skipped: [SkippedEnd] = []
    var now = time
    while true {
      if actions.isEmpty {
        guard let event = events.popFirst() else { break }
        now = time
        actions = state.withLock { $0.scheduler.handle(event, at: now) }
      }
      for index in actions.indices {
        let action = actions[index]
        if case .skip(let end) = action {
          skipped.append(end)
          continue
        }
        // Written before any other action, so that every record keeps its place.
        if !skipped.isEmpty { write(skipped, mayWait: storeAllowed) }
        skipped.removeAll(keepingCapacity: true)
        if !storeAllowed && needsStore(action) {
          let rest = Array(actions[index...])
          let later = Array(events.waiting)
          exclusion.async { self.carryOut(events: later, actions: rest, storeAllowed: true) }
          return
        }
        if let answer = perform(action, at: now) { events.append(answer) }
      }
      actions = []
      if !skipped.isEmpty { write(skipped, mayWait: storeAllowed) }
      skipped.removeAll(keepingCapacity: true)
    }
  }

  /// Whether carrying out `action` calls the store (and so may wait: another process's lock, a
  /// round trip).
  private func needsStore(_ action: SchedulerAction) -> Bool {
    switch action {
    case .claim, .claimDue, .askNextClaimable, .postpone, .release, .renewLeases, .finish:
      true
    case .start:
      // A store that spaces starts across processes is asked for the host's start time.
      pacing != nil && puller.configuration.hostDelay > .zero
    case .skip, .cancelPulls, .wake, .notice:
      false
    }
  }

  /// Carries out one action; returns the store's answer when it has one.
  private func perform(_ action: SchedulerAction, at now: SchedulerTime) -> SchedulerEvent? {
    switch action {
    case .claim(let sources, let dueOnly, let grantLimit):
      do throws(StoreError) {
        let answers = try claims.claim(
          sources, at: now.clock, dueOnly: dueOnly, grantLimit: grantLimit)
        return .claimed(answers, holds: try holds(of: answers, now: now.clock))
      } catch {
        return .claimFailed(error)
      }
    case .claimDue(let limit):
      do throws(StoreError) {
        let answers = try leasing.claimDue(at: now.clock, limit: limit).map(ClaimAnswer.granted)
        return .claimed(answers, holds: try holds(of: answers, now: now.clock))
      } catch {
        return .claimFailed(error)
      }
    case .askNextClaimable:
      do throws(StoreError) {
        return .nextClaimable(try leasing.nextClaimable(after: now.clock))
      } catch {
        notices(.storeFailed(error))
        return .nextClaimable(now.clock + .seconds(5))
      }
    case .start(let planned):
      return start(planned)
    case .skip(let skipped):
      write([skipped])
    case .postpone(let source, let until, let reason):
      tolerate { () throws(StoreError) in
        try leasing.postpone(source, until: until, reason: reason)
      }
    case .release(let sources):
      tolerate { () throws(StoreError) in try leasing.releaseLeases(of: sources) }
    case .renewLeases(let sources):
      tolerate { () throws(StoreError) in try leasing.renewLeases(of: sources) }
    case .cancelPulls:
      let batches = state.withLock { state in
        state.cancelling = true
        return Array(state.batches.values)
      }
      for batch in batches { batch.cancel() }
    case .wake(let moment):
      arm(moment, at: now)
    case .notice(let notice):
      notices(notice)
    case .finish(let error):
      finish(error)
    }
    return nil
  }

  /// The Retry-After holds the store keeps for the hosts of granted sources.
  private func holds(of answers: [ClaimAnswer], now: Duration) throws(StoreError)
    -> [String: Duration]
  {
    guard answers.contains(where: { if case .granted = $0 { true } else { false } }),
      try leasing.hasHostHolds(now: now)
    else { return [:] }
    var hosts = Set<String>()
    for answer in answers {
      guard case .granted(let state) = answer else { continue }
      hosts.insert(PoliteHost.key(forURL: state.requestURL) ?? state.requestURL)
    }
    return hosts.isEmpty ? [:] : try leasing.hostHolds(of: hosts, now: now)
  }

  /// A store call whose failure costs only a lease's time (a release, a renewal): told, not
  /// fatal.
  private func tolerate(_ call: () throws(StoreError) -> Void) {
    do throws(StoreError) {
      try call()
    } catch {
      notices(.storeFailed(error))
    }
  }

  private func arm(_ moment: SchedulerWake?, at now: SchedulerTime) {
    var delay: Duration?
    if let at = moment?.clock { delay = at - clock.now }
    if let at = moment?.elapsed {
      let pause = at - (SubscriptionClock.monotonicNow() - origin)
      delay = min(delay ?? pause, pause)
    }
    timer.withLock { timer in
      guard let delay else { return timer.schedule(deadline: .distantFuture) }
      let nanoseconds = max(.zero, min(delay, .seconds(366 * 86_400))).components
      let total =
        Int(nanoseconds.seconds) * 1_000_000_000
        + Int(nanoseconds.attoseconds / 1_000_000_000)
      timer.schedule(deadline: .now() + .nanoseconds(total), leeway: .milliseconds(5))
    }
  }

  private func finish(_ error: StoreError?) {
    timer.withLock { $0.cancel() }
    // A scan still reading would hold the log open against the checkpoint.
    claims.stopScan()
    do throws(StoreError) {
      try store.checkpoint()
    } catch {
      notices(.storeFailed(error))
    }
    skippedEnds.drain()
    sink.flush()
    let first = state.withLock { state in
      defer { state.finished = true }
      state.summary.storeError = error
      return !state.finished
    }
    if first { done.leave() }
  }
}
