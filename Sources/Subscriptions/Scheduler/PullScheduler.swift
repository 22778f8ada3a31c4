import FeedPull
import FeedPullSupport

/// The one scheduler of every way feedpull pulls subscriptions, as a pure state machine: events
/// in (`handle`: the time, a claim answered, a pull ended, the store lost, the list reloaded,
/// stop), actions out (claim these sources, start this pull, write a skipped `end`, postpone or
/// release a source, wake me at T, finish). Its owner (`SubscriptionRun`) carries the actions
/// out against the store, the puller and one timer, and feeds the answers back; the scheduler
/// itself touches no store, socket or clock, so every rule is tested as a table on virtual time.
///
/// A pass over named sources, a `--due` pass, a pass over every due source of the store, and a
/// watch of any of them are configurations of it, on any store (`Configuration`):
/// - named sources are looked at in the order given: claimed a batch at a time (the store
///   answers each: granted, not due, leased by another process; the batch grows while few of
///   them are due), pulled as slots free; a pass
///   ends when each has been answered and pulled; a watch puts each back on its schedule at its
///   next check and sleeps until the earliest;
/// - every due source of the store (no names): claimed as slots free until none is left; a
///   watch then sleeps until the store's next claimable moment.
///
/// Rules that hold in every configuration: never more than `slots` pulls at once and never more
/// than as many again claimed and waiting (or twice the claim size held in all, when that is
/// more: `claimAtLeast`, grown up to `claimAtMost` while ends come fast enough to fill
/// `claimSpan`), so a claim takes sources a few at a time and several processes share a pass; a
/// source that is gone (410) or whose host asked to wait (Retry-After, also one received
/// during this run) is not requested (unless `force`) but postponed; leases
/// held are renewed every third of their length; a store that fails is asked again after a
/// pause that doubles up to 5 s, while what is in flight finishes, and a pass gives up after
/// `storeGiveUp`.
struct PullScheduler: Sendable {
  /// Which sources, when the run ends, and the limits.
  struct Configuration: Sendable, Equatable {
    /// Named sources (given to `init`), or every due source of the store.
    var named = true
    /// Run until stopped, pulling each source when it is due.
    var watch = false
    /// Pull only due sources (a watch always does).
    var onlyDue = false
    /// Pull gone and held sources too.
    var force = false
    /// Pulls at once.
    var slots = 8
    /// Names looked at per claim, at most.
    var claimBatch = 1024
    /// Sources granted per claim at least, when there are that many to claim: the window (pulls
    /// and claimed sources waiting) is at least twice this, refilled once half of it is free.
    /// A claim is a write transaction of the store, whose cost (the pages of its indexes it
    /// rewrites) grows with the transactions more than with the sources in each.
    var claimAtLeast = 1
    /// Sources granted per claim at most: a claim grows from `claimAtLeast` to as many as
    /// ended in `claimSpan` at the rate they ended since the previous claim. A pass of 304s ends
    /// a source every tenth of a millisecond, and claims of 32 cost it a claim transaction and
    /// two wake-ups of the store's thread every 3 ms; a pass of slow sources (or one that many
    /// workers share) keeps claims small, so that no worker holds a long tail at the end.
    /// At most `claimAtLeast` (the default here): claims of a fixed size.
    var claimAtMost = 1
    /// How long the sources of one claim should last at the rate ends came.
    var claimSpan: Duration = .milliseconds(250)
    /// A source is pulled without validators when its last such pull is this old.
    var unconditionalEvery: Duration = .seconds(86_400)
    /// How far a gone source is postponed.
    var maxInterval: Duration = .seconds(86_400)
    /// When a source whose end could not be recorded is tried again (a watch).
    var retryUnrecorded: Duration = .seconds(900)
    /// Renew held leases this often (a third of their length); nil: none to renew.
    var leaseRenewal: Duration? = .seconds(20)
    /// A pass whose store stays unreachable this long gives up.
    var storeGiveUp: Duration = .seconds(120)
    /// A watch of every due source asks the store again at least this often (other processes
    /// add sources).
    var storeRecheck: Duration = .seconds(300)
  }

  private enum Phase: Sendable { case idle, running, stopping, finished }

  private enum PendingClaim: Sendable {
    /// The sources asked for, their due times, and their names as the claim gave them.
    case named([(id: Int, due: Duration)], names: [String], grantLimit: Int)
    case due(limit: Int)
  }

  /// Measured on the elapsed (monotonic) time.
  private struct Trouble: Sendable {
    var since: Duration
    var pause: Duration
    var retryAt: Duration
    var error: StoreError
  }

  let configuration: Configuration
  private(set) var names: SourceList
  private var schedule = SourceSchedule()
  /// Per named source: bit 0, its `not_due` end was written since it entered the list; bits
  /// 1–5, the reason of its next check + 1 (for the idle notice); bit 7, it is being pulled
  /// (`pullingMark`); bit 6, its end is being recorded (`recordingMark`). A claim's names are
  /// checked against the pulls in flight, and a pull's start and ends are followed, by the
  /// source's number in the list, without hashing its name (a `Set<String>` look-up per name was
  /// 5% of a million-name pass; the sets of pulls in flight and being recorded, five hashes of a
  /// name a pull).
  private var marks: [UInt8]
  /// Claimed and waiting for a slot.
  private var ready = FirstInQueue<SubscriptionState>()
  /// Sources pulled now: how many, and by name those not in the list (every due source of the
  /// store, or a source a watch's new list dropped while it was pulled); listed ones are marked.
  private var inFlightCount = 0
  private var unlistedInFlight: Set<String> = []
  /// Pulls whose transfer is over and whose end is being recorded: their slots are free (the
  /// next pull need not wait for a commit), their leases still held until the end is recorded.
  /// Counted and kept as the pulls in flight are.
  private var recordingCount = 0
  private var unlistedRecording: Set<String> = []
  private var pending: PendingClaim?
  /// Hosts asked to wait (Retry-After) and until when: from the store and from this run's ends.
  private var holds: [String: Duration] = [:]
  private var trouble: Trouble?
  /// Every due source of the store: the last claim got fewer than it asked for.
  private var exhausted = false
  /// Every due source, watching: when to claim again; asking the store for it.
  private var storeCheckAt: Duration?
  private var askingStore = false
  /// On the elapsed time.
  private var renewAt: Duration?
  private var heldByConsumer = false
  private var phase = Phase.idle
  /// A stop asked because the output failed: write nothing more.
  private var silent = false
  private var armed: SchedulerWake?
  /// Names looked at per claim now: as many as there is room for while the names are due,
  /// doubling (up to `claimBatch`) while claims find too few of them due, so that a list of a
  /// million sources mostly not due costs a thousand claims, and a due one never locks more rows
  /// than it pulls.
  private var claimSize = 0
  private var lastIdle: SubscriptionNotice?

  /// A scheduler for `names` (ignored without `configuration.named`).
  init(_ configuration: Configuration, names: SourceList = SourceList()) {
    var configuration = configuration
    configuration.slots = max(1, configuration.slots)
    configuration.claimBatch = max(1, configuration.claimBatch)
    configuration.claimAtLeast = max(1, configuration.claimAtLeast)
    configuration.claimAtMost = max(configuration.claimAtLeast, configuration.claimAtMost)
    if configuration.watch { configuration.onlyDue = true }
    self.configuration = configuration
    self.names = names
    window = Self.window(configuration, claims: configuration.claimAtLeast)
    claimSize = min(window, configuration.claimBatch)
    marks = Array(repeating: 0, count: names.count)
    if configuration.named { schedule.setAllDue(names.count) }
  }

  /// Sources held at once: pulled, and claimed and waiting (as many again as the slots, or
  /// twice the claim size when that is more; see `claimWindow`).
  private var window: Int
  /// Pulls ended since the last claim (their transfers over), and when it was asked (elapsed
  /// time): the rate that sizes the next claim.
  private var endsSinceClaim = 0
  private var lastClaimAt: Duration?

  /// Whether to claim more now. Claimed a slot's worth at a time, a claim (one write
  /// transaction) per source would be most of what a source costs the store: the window is
  /// refilled once half of it is free, or when nothing waits.
  private var roomToClaim: Bool {
    let want = window - readyCount - inFlightCount
    return want > 0 && (want >= window / 2 || readyCount == 0) && !heldByConsumer
  }
  private var readyCount: Int { ready.count }
  /// States the queue of claimed sources keeps, those already started included until it lets
  /// them go: fewer than two windows, however long the pass.
  var statesKept: Int { ready.stored }
  /// Leases held by this run: claimed and waiting, or in flight.
  private var leasesHeld: Int { readyCount + inFlightCount + recordingCount }
  /// Pulls started and not yet recorded: nothing ends a run while one is left.
  private var unfinished: Bool { inFlightCount > 0 || recordingCount > 0 }

  /// Sources pulled now.
  var pullsInFlight: Int { inFlightCount }
  /// Named sources on the schedule.
  var scheduled: Int { schedule.count }
  /// True once `finish` was emitted.
  var isFinished: Bool { phase == .finished }

  /// Named sources due at `now` (a walk: for statistics only).
  func dueCount(at now: Duration) -> Int { schedule.dueCount(now: now) }

  /// The earliest next check of a named source not in flight.
  mutating func nextDue() -> Duration? { schedule.earliest()?.due }

  /// Feeds one event at `time`; returns what to do, in order.
  mutating func handle(_ event: SchedulerEvent, at time: SchedulerTime) -> [SchedulerAction] {
    let now = time.clock
    guard phase != .finished else { return [] }
    var actions: [SchedulerAction] = []
    switch event {
    case .start:
      guard phase == .idle else { return [] }
      phase = .running
    case .timer: break
    case .claimed(let answers, let storeHolds):
      for (host, until) in storeHolds { hold(host, until: until) }
      recovered(&actions)
      answered(answers, now: now, &actions)
    case .claimFailed(let error):
      failedClaim(error, elapsed: time.elapsed, &actions)
    case .nextClaimable(let moment):
      askingStore = false
      let latest = now + configuration.storeRecheck
      storeCheckAt = min(moment.map { max($0, now) } ?? latest, latest)
    case .startRefused(let state):
      _ = leave(state.source, Self.pullingMark)
      ready.putBack(state)
      heldByConsumer = true
    case .resumed:
      heldByConsumer = false
    case .transferEnded(let source, let hostHold):
      guard moveToRecording(source) else { break }
      // The rate that sizes claims counts ends as slots free, not as their records are
      // written: those wait for a group commit, and a claim asked meanwhile saw too few.
      endsSinceClaim += 1
      if let hostHold { hold(hostHold.host, until: hostHold.until) }
    case .pullEnded(let end):
      ended(end, now: now, &actions)
    case .reload(let listed):
      reload(listed, now: now, &actions)
    case .stop:
      stop(silently: false, &actions)
    case .outputFailed:
      stop(silently: true, &actions)
    }
    pump(time, &actions)
    return actions
  }

  // MARK: - Answers

  private mutating func answered(
    _ answers: [ClaimAnswer], now: Duration, _ actions: inout [SchedulerAction]
  ) {
    guard let claim = pending else { return }
    pending = nil
    switch claim {
    case .due(let limit):
      if answers.count < limit { exhausted = true }
      for answer in answers {
        guard case .granted(let state) = answer else { continue }
        granted(state, id: nil, now: now, &actions)
      }
    case .named(let asked, let askedNames, let grantLimit):
      let grants = answers.reduce(0) { count, answer in
        if case .granted = answer { count + 1 } else { count }
      }
      if answers.count == asked.count && grants < grantLimit {
        claimSize = min(configuration.claimBatch, claimSize * 2)
      } else {
        claimSize = window
      }
      // Room for an action per source asked and for what the pump adds after them (a start
      // per free slot, a claim, a finish): reserved to the count alone, the pump's next append
      // copied every action of the step again (2.6% of a `--due -i` pass over a million
      // names, where most actions are skipped ends; callgrind). Left to grow by doubling, the
      // copies cost more still.
      actions.reserveCapacity(actions.count + asked.count + window + 2)
      for (index, entry) in asked.enumerated() {
        guard index < answers.count else {
          // Not looked at (the grant limit was reached first): back in line as it was.
          schedule.set(entry.id, due: entry.due)
          continue
        }
        let name = askedNames[index]
        switch answers[index] {
        case .granted(let state): granted(state, id: entry.id, now: now, &actions)
        case .notDue(let at, let reason):
          remember(entry.id, reason: reason)
          if !wasAnnounced(entry.id) && !silent {
            announce(entry.id)
            actions.append(
              .skip(SkippedEnd(source: name, why: .notDue, nextCheckAt: at, reason: reason)))
          }
          if configuration.watch { schedule.set(entry.id, due: at) }
        case .leased(let until):
          if configuration.watch {
            // Another process pulls it; look again once its lease ends (it will have recorded
            // a later next check by then, or died and left it due).
            announce(entry.id)
            schedule.set(entry.id, due: until + .seconds(1))
          } else if !silent {
            actions.append(.skip(SkippedEnd(source: name, why: .inProgress)))
          }
        }
      }
    }
  }

  /// A source leased to this run: pulled, or (gone, or its host held) postponed with a
  /// `deferred` end, or, while stopping, released.
  private mutating func granted(
    _ state: SubscriptionState, id: Int?, now: Duration, _ actions: inout [SchedulerAction]
  ) {
    if phase == .stopping || (id.map(isBusy) ?? isBusy(state.source)) {
      actions.append(.release([state.source]))
      if !silent && !configuration.watch && phase == .stopping {
        actions.append(.skip(SkippedEnd(source: state.source, why: .cancelled)))
      }
      return
    }
    if let id { announce(id) }
    if let deferral = deferral(of: state, now: now) {
      postpone(deferral, id: id, now: now, &actions)
      return
    }
    ready.append(state)
  }

  /// Writes a deferred source's end and postpones it in the store; a watch looks at a held one
  /// again when its hold ends, and drops a gone one.
  private mutating func postpone(
    _ deferral: SkippedEnd, id: Int?, now: Duration, _ actions: inout [SchedulerAction]
  ) {
    let until = deferral.nextCheckAt ?? now
    let reason = deferral.reason ?? .default
    if !silent { actions.append(.skip(deferral)) }
    actions.append(.postpone(deferral.source, until: until, reason: reason))
    if let id, configuration.watch {
      remember(id, reason: reason)
      if case .held = deferral.why { schedule.set(id, due: until) }
    }
  }

  /// The `deferred` end of a source not to be requested now: gone (410), or its host held by a
  /// Retry-After. Nil when it is to be pulled (always with `force`).
  private mutating func deferral(of state: SubscriptionState, now: Duration) -> SkippedEnd? {
    guard !configuration.force else { return nil }
    if state.gone {
      return SkippedEnd(
        source: state.source, why: .gone,
        nextCheckAt: now.inWholeSeconds + configuration.maxInterval,
        reason: state.nextCheckReason ?? .default, errorsInRow: state.errorsInRow,
        movedTo: state.movedTo)
    }
    // Working out the host costs a look-up in the Public Suffix List: only when a host holds.
    guard !holds.isEmpty else { return nil }
    let host = PoliteHost.key(forURL: state.requestURL) ?? state.requestURL
    guard let until = holds[host] else { return nil }
    guard until > now else {
      holds[host] = nil
      return nil
    }
    return SkippedEnd(
      source: state.source, why: .held(host: host), nextCheckAt: max(until, state.nextCheckAt),
      reason: .retryAfter, errorsInRow: state.errorsInRow, movedTo: state.movedTo)
  }

  private mutating func hold(_ host: String, until: Duration) {
    holds[host] = max(holds[host] ?? until, until)
  }

  // MARK: - Ends

  private mutating func ended(_ end: PullEnd, now: Duration, _ actions: inout [SchedulerAction]) {
    let inFlightBefore = inFlightCount
    guard leave(end.source, Self.pullingMark | Self.recordingMark) else { return }
    // Counted for the claims' rate when its transfer ended (`transferEnded`), or now when it
    // went from in flight to ended at once.
    if inFlightCount < inFlightBefore { endsSinceClaim += 1 }
    if let hold = end.hostHold { self.hold(hold.host, until: hold.until) }
    // The store knows this end's next check now: ask it again before sleeping.
    if !configuration.named && !askingStore { storeCheckAt = nil }
    guard configuration.watch, phase == .running, let id = names.index(of: end.source) else {
      return
    }
    guard let next = end.nextCheckAt else {
      schedule.set(id, due: now + configuration.retryUnrecorded)
      return
    }
    remember(id, reason: end.reason)
    if end.gone && !configuration.force {
      schedule.remove(id)
      return
    }
    // Never sooner than a second: a schedule that says "now" again must not spin.
    schedule.set(id, due: max(next, now + .seconds(1)))
  }

  // MARK: - Store trouble

  private mutating func failedClaim(
    _ error: StoreError, elapsed now: Duration, _ actions: inout [SchedulerAction]
  ) {
    if case .named(let asked, _, _) = pending {
      for entry in asked { schedule.set(entry.id, due: entry.due) }
    }
    pending = nil
    if var current = trouble {
      current.pause = min(current.pause * 2, .seconds(5))
      current.retryAt = now + current.pause
      current.error = error
      trouble = current
    } else {
      trouble = Trouble(
        since: now, pause: .milliseconds(100), retryAt: now + .milliseconds(100), error: error)
      actions.append(.notice(.storeFailed(error)))
    }
  }

  private mutating func recovered(_ actions: inout [SchedulerAction]) {
    guard trouble != nil else { return }
    trouble = nil
    actions.append(.notice(.storeBack))
  }

  // MARK: - Reload and stop

  private mutating func reload(
    _ listed: SourceList, now: Duration, _ actions: inout [SchedulerAction]
  ) {
    guard configuration.named, configuration.watch, phase == .running else { return }
    var schedule = SourceSchedule()
    schedule.reserve(listed.count)
    var marks = [UInt8](repeating: 0, count: listed.count)
    // Pulled or recorded now, by name: marked again below, in the new list or by name.
    let pulling = busyNames(Self.pullingMark)
    let recording = busyNames(Self.recordingMark)
    var kept = 0
    for id in 0..<listed.count {
      let name = listed[id]
      if let old = names.index(of: name) {
        kept += 1
        marks[id] = self.marks[old] & ~Self.busyMarks
        if let due = self.schedule.due(old) { schedule.set(id, due: due) }
      } else {
        schedule.set(id, due: .zero)
      }
    }
    // Claimed and waiting, but no longer listed: given back.
    let waiting = ready.waiting
    let dropped = waiting.filter { !listed.contains($0.source) }.map(\.source)
    if !dropped.isEmpty {
      ready = FirstInQueue(waiting.filter { listed.contains($0.source) })
      actions.append(.release(dropped))
    }
    let removed = names.count - kept
    self.names = listed
    self.schedule = schedule
    self.marks = marks
    // Set again by name: a source pulled now may have left the list and come back meanwhile.
    unlistedInFlight = []
    unlistedRecording = []
    for source in pulling { mark(source, Self.pullingMark) }
    for source in recording { mark(source, Self.recordingMark) }
    actions.append(
      .notice(.reloaded(added: listed.count - kept, removed: removed, count: listed.count)))
  }

  private mutating func stop(silently: Bool, _ actions: inout [SchedulerAction]) {
    if silently { silent = true }
    guard phase == .running || phase == .idle else { return }
    phase = .stopping
    actions.append(.cancelPulls)
    let waiting = ready.waiting.map(\.source)
    ready.removeAll()
    if !waiting.isEmpty {
      actions.append(.release(waiting))
      if !silent && !configuration.watch {
        for source in waiting { actions.append(.skip(SkippedEnd(source: source, why: .cancelled))) }
      }
    }
    if silent || configuration.watch || !configuration.named {
      schedule = SourceSchedule()
    }
  }

  // MARK: - The pump

  private mutating func pump(_ time: SchedulerTime, _ actions: inout [SchedulerAction]) {
    let now = time.clock
    switch phase {
    case .idle, .finished: return
    case .stopping:
      cancelUnstarted(time, &actions)
      if !unfinished && pending == nil && schedule.count == 0 {
        finish(nil, &actions)
      }
      return
    case .running: break
    }
    startReady(now: now, &actions)
    claimMore(time, &actions)
    if !configuration.watch && pending == nil && readyCount == 0 && !unfinished {
      let nothingLeft = configuration.named ? schedule.count == 0 : exhausted
      if nothingLeft {
        finish(nil, &actions)
        return
      }
      if let trouble, time.elapsed - trouble.since >= configuration.storeGiveUp {
        finish(trouble.error, &actions)
        return
      }
    }
    renew(elapsed: time.elapsed, &actions)
    // A claim in flight is answered before anything else, and its answer arms the timer.
    if pending == nil && !askingStore { arm(time, &actions) }
  }

  /// A pass that stops: every named source not yet started ends `cancelled`, a batch at a time
  /// (the timer comes straight back for the next batch).
  private mutating func cancelUnstarted(
    _ time: SchedulerTime, _ actions: inout [SchedulerAction]
  ) {
    var written = 0
    while written < configuration.claimBatch,
      let (id, _) = schedule.popDue(now: .seconds(Int64.max / 4))
    {
      actions.append(.skip(SkippedEnd(source: names[id], why: .cancelled)))
      written += 1
    }
    if schedule.count > 0 { wake(SchedulerWake(elapsed: time.elapsed), &actions) }
  }

  private mutating func startReady(now: Duration, _ actions: inout [SchedulerAction]) {
    while inFlightCount < configuration.slots, !heldByConsumer, let state = ready.popFirst() {
      // A hold that arrived while it waited (a Retry-After of this run) still defers it.
      if let deferral = deferral(of: state, now: now) {
        postpone(deferral, id: names.index(of: state.source), now: now, &actions)
        continue
      }
      inFlightCount += 1
      mark(state.source, Self.pullingMark)
      let last = state.lastUnconditionalAt ?? .seconds(Int64.min / 4)
      actions.append(
        .start(
          PlannedPull(state: state, unconditional: now - last >= configuration.unconditionalEvery)
        ))
    }
  }

  private mutating func claimMore(_ time: SchedulerTime, _ actions: inout [SchedulerAction]) {
    let now = time.clock
    guard pending == nil else { return }
    if let trouble, trouble.retryAt > time.elapsed { return }
    guard roomToClaim else { return }
    let sized = claimWindow(elapsed: time.elapsed)
    // Shrunk at once (ends slowed), so that `roomToClaim`, and the wake armed by it, agree:
    // nothing is claimed until what is held fits in it again.
    if sized < window { window = sized }
    let want = sized - readyCount - inFlightCount
    guard want > 0 else { return }
    if configuration.named {
      var asked: [(id: Int, due: Duration)] = []
      var askedNames: [String] = []
      let size = max(want, min(claimSize, configuration.claimBatch))
      asked.reserveCapacity(size)
      askedNames.reserveCapacity(size)
      while asked.count < size, let (id, due) = schedule.popDue(now: now) {
        let name = names[id]
        // In flight (removed and listed again meanwhile): its end puts it back.
        if isBusy(id) { continue }
        asked.append((id, due))
        askedNames.append(name)
      }
      guard !asked.isEmpty else { return }
      claimSent(window: sized, elapsed: time.elapsed)
      pending = .named(asked, names: askedNames, grantLimit: want)
      actions.append(.claim(askedNames, dueOnly: configuration.onlyDue, grantLimit: want))
      return
    }
    if exhausted {
      guard configuration.watch, !askingStore else { return }
      guard let at = storeCheckAt else {
        askingStore = true
        actions.append(.askNextClaimable)
        return
      }
      guard at <= now else { return }
      storeCheckAt = nil
      exhausted = false
    }
    claimSent(window: sized, elapsed: time.elapsed)
    pending = .due(limit: want)
    actions.append(.claimDue(limit: want))
  }

  /// The window for a claim asked now: twice as many sources as ended in `claimSpan` at the
  /// rate pulls ended since the previous claim (between `claimAtLeast` and `claimAtMost`), or
  /// twice the slots when that is more. Measured from claim to claim only, so an idle watch
  /// that wakes claims at `claimAtLeast`.
  private func claimWindow(elapsed now: Duration) -> Int {
    guard configuration.claimAtMost > configuration.claimAtLeast, let last = lastClaimAt,
      now > last
    else { return window }
    let fitting =
      Double(endsSinceClaim) * configuration.claimSpan.inSeconds / (now - last).inSeconds
    return Self.window(
      configuration, claims: Int(min(Double(configuration.claimAtMost), fitting.rounded(.down))))
  }

  /// The sources held at once for claims of `size`: twice a claim (never below
  /// `claimAtLeast`), or twice the slots when that is more.
  private static func window(_ configuration: Configuration, claims size: Int) -> Int {
    max(2 * configuration.slots, 2 * max(configuration.claimAtLeast, size))
  }

  /// A claim was asked with `window`: the rate of ends is measured again from now.
  private mutating func claimSent(window: Int, elapsed now: Duration) {
    self.window = window
    lastClaimAt = now
    endsSinceClaim = 0
  }

  private mutating func renew(elapsed now: Duration, _ actions: inout [SchedulerAction]) {
    guard let period = configuration.leaseRenewal, leasesHeld > 0 else {
      renewAt = nil
      return
    }
    guard let at = renewAt else {
      renewAt = now + period
      return
    }
    if at <= now {
      actions.append(
        .renewLeases(
          ready.waiting.map(\.source) + busyNames(Self.pullingMark).sorted()
            + busyNames(Self.recordingMark).sorted()))
      renewAt = now + period
    }
  }

  /// Arms the one timer for the earliest moment something is to be done, and tells an idle
  /// watch's user when that is and why.
  private mutating func arm(_ time: SchedulerTime, _ actions: inout [SchedulerAction]) {
    let now = time.clock
    // Two kinds of moment: due times on the schedule's clock, pauses on the elapsed time. For
    // the user, a pause is told as the schedule's moment it ends at.
    var due: (at: Duration, cause: WakeCause)?
    var pause: (at: Duration, cause: WakeCause)?
    func consider(_ at: Duration?, _ cause: WakeCause, elapsed: Bool) {
      guard let at else { return }
      if elapsed {
        if pause == nil || at < pause!.at { pause = (at, cause) }
      } else if due == nil || at < due!.at {
        due = (at, cause)
      }
    }
    // While the store is away, nothing is claimed before the retry: due times wait for it.
    let waitingForStore = trouble.map { $0.retryAt > time.elapsed } ?? false
    if let trouble, waitingForStore { consider(trouble.retryAt, .storeRetry, elapsed: true) }
    if let renewAt { consider(renewAt, .leaseRenewal, elapsed: true) }
    let roomToClaim = self.roomToClaim && !waitingForStore
    if roomToClaim && configuration.named, let (at, id) = schedule.earliest() {
      consider(max(at, now), cause(of: id), elapsed: false)
    }
    if roomToClaim && !configuration.named && exhausted && configuration.watch {
      consider(storeCheckAt, .storeCheck, elapsed: false)
    }
    wake(SchedulerWake(clock: due?.at, elapsed: pause?.at), &actions)
    guard configuration.watch, !unfinished, readyCount == 0 else { return }
    var next = due
    if let pause {
      let at = now + (pause.at - time.elapsed)
      if next == nil || at < next!.at { next = (at, pause.cause) }
    }
    let idle = SubscriptionNotice.idle(until: next?.at, cause: next?.cause ?? .nothing)
    if idle != lastIdle {
      lastIdle = idle
      actions.append(.notice(idle))
    }
  }

  private func cause(of id: Int) -> WakeCause {
    let code = Int((marks[id] & Self.reasonMarks) >> 1)
    let reason = code > 0 ? CheckReason.allCases[code - 1] : nil
    return .check(source: names[id], reason: reason)
  }

  private mutating func wake(_ moment: SchedulerWake, _ actions: inout [SchedulerAction]) {
    let moment = moment.clock == nil && moment.elapsed == nil ? nil : moment
    guard moment != armed else { return }
    armed = moment
    actions.append(.wake(moment))
  }

  private mutating func finish(_ error: StoreError?, _ actions: inout [SchedulerAction]) {
    phase = .finished
    wake(SchedulerWake(), &actions)
    actions.append(.finish(error))
  }

  // MARK: - Marks

  private func wasAnnounced(_ id: Int) -> Bool { marks[id] & 1 != 0 }

  private mutating func announce(_ id: Int) { marks[id] |= 1 }

  private mutating func remember(_ id: Int, reason: CheckReason?) {
    let code = reason.flatMap { CheckReason.allCases.firstIndex(of: $0) }.map { UInt8($0 + 1) } ?? 0
    marks[id] = (marks[id] & ~Self.reasonMarks) | (code << 1)
  }

  /// Bit 7 of a source's mark: it is being pulled.
  private static let pullingMark: UInt8 = 0x80
  /// Bit 6 of a source's mark: its transfer is over and its end is being recorded.
  private static let recordingMark: UInt8 = 0x40
  private static let busyMarks: UInt8 = pullingMark | recordingMark
  /// Bits 1–5: the reason of its next check + 1.
  private static let reasonMarks: UInt8 = 0x3e

  /// Whether listed source `id` is being pulled or recorded now.
  private func isBusy(_ id: Int) -> Bool { marks[id] & Self.busyMarks != 0 }

  /// Whether `source` is being pulled or recorded now.
  private func isBusy(_ source: String) -> Bool {
    if configuration.named, let id = names.index(of: source) { return isBusy(id) }
    return unlistedInFlight.contains(source) || unlistedRecording.contains(source)
  }

  /// Marks `source` as `busy` (`pullingMark` or `recordingMark`): its list mark, or by name
  /// when it is not listed.
  private mutating func mark(_ source: String, _ busy: UInt8) {
    if configuration.named, let id = names.index(of: source) {
      marks[id] = marks[id] & ~Self.busyMarks | busy
    } else if busy == Self.pullingMark {
      unlistedInFlight.insert(source)
    } else {
      unlistedRecording.insert(source)
    }
  }

  /// Takes `source` out of the pulls in flight or being recorded (those `busy` names), with
  /// its count; false when it was in none of them.
  private mutating func leave(_ source: String, _ busy: UInt8) -> Bool {
    var was: UInt8 = 0
    if configuration.named, let id = names.index(of: source), marks[id] & busy != 0 {
      was = marks[id] & busy
      marks[id] &= ~Self.busyMarks
    } else if busy & Self.pullingMark != 0, unlistedInFlight.remove(source) != nil {
      was = Self.pullingMark
    } else if busy & Self.recordingMark != 0, unlistedRecording.remove(source) != nil {
      was = Self.recordingMark
    }
    if was & Self.pullingMark != 0 { inFlightCount -= 1 }
    if was & Self.recordingMark != 0 { recordingCount -= 1 }
    return was != 0
  }

  /// A pull whose transfer ended: from the pulls in flight to those being recorded (a listed
  /// one's two bits flipped, its name looked up once); false when it was not in flight.
  private mutating func moveToRecording(_ source: String) -> Bool {
    if configuration.named, let id = names.index(of: source), marks[id] & Self.pullingMark != 0 {
      marks[id] = marks[id] & ~Self.busyMarks | Self.recordingMark
    } else {
      guard unlistedInFlight.remove(source) != nil else { return false }
      unlistedRecording.insert(source)
    }
    inFlightCount -= 1
    recordingCount += 1
    return true
  }

  /// The names of the sources marked `busy`: listed ones (a walk of the marks: for a lease
  /// renewal or a reload, not per pull) and unlisted ones.
  private func busyNames(_ busy: UInt8) -> [String] {
    var found = Array(busy == Self.pullingMark ? unlistedInFlight : unlistedRecording)
    guard configuration.named, inFlightCount + recordingCount > found.count else { return found }
    for id in marks.indices where marks[id] & busy != 0 { found.append(names[id]) }
    return found
  }
}
