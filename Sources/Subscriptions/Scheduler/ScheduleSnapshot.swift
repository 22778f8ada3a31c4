import Dispatch
import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A run's claims of named sources, answered `notDue` without the store for the sources a
/// single read of the store found not due: a `--due` pass over a list of a million sources, or
/// a watch starting on one, looks at every name once, and a claim's look at each name costs the
/// store two random reads (its index, its row) where one scan of the table reads them all.
///
/// The store is scanned from the first claim of due sources, when the list is long
/// (`minimumSources`) and a good part of the store (a quarter of its sources, or more): the
/// scan costs a read of the whole table however few of its sources are named. It runs on a
/// thread of its own while the claims go on: a claim waits only until the scan has passed its
/// sources. The scan publishes how far the list is covered (every source numbered below
/// `through` found); a store's rows come in the order they were registered, mostly the list's,
/// so the claims follow the scan a little behind it, and a pass's writing of its `not_due` ends
/// overlaps the reading of the table (one after the other, they were two thirds of a `--due -i`
/// pass over a million names). A source the store lacks stops `through`: claims past it wait
/// for the scan's end, as every claim did before.
///
/// What it found is kept as 9 bytes a named source, and each source's entry is used once and
/// then forgotten, so that a watch asks the store itself from the second look at a source on
/// (its schedule by then is the store's, not the scan's); once every entry is used, the arrays
/// are freed. Sources the scan did not find free (unknown, leased by another process) and those
/// due by the time of their claim go to the store's claim as before. An answer read by the scan
/// is as old as the scan: a pass that takes seconds says `not_due` for its last source as the
/// store was when it began, which a claim, reading each name a little later, would not; nothing
/// is leased or pulled on that answer. A scan that fails leaves every claim to the store.
final class ScheduleSnapshot: Sendable {
  /// Lists shorter than this are claimed name by name.
  static let minimumSources = 4096

  /// The scan publishes its progress after this many rows (and at its end).
  private static let rowsPerPublication = 1024

  private static let unread = Int64.min

  /// What the scan found, per source number: its next check (seconds), or `unread`, and its
  /// reason's place in `CheckReason.allCases` + 1 (0: none). Written by the scan's thread; read
  /// by claims only where `Progress` says it is written, and never written again there.
  private final class Findings: @unchecked Sendable {
    let nextCheck: UnsafeMutableBufferPointer<Int64>
    let reasons: UnsafeMutableBufferPointer<UInt8>

    init(count: Int) {
      nextCheck = .allocate(capacity: count)
      nextCheck.initialize(repeating: ScheduleSnapshot.unread)
      reasons = .allocate(capacity: count)
      reasons.initialize(repeating: 0)
    }

    deinit {
      nextCheck.deallocate()
      reasons.deallocate()
    }
  }

  /// What the scan's thread and the claims share.
  private struct Progress {
    /// The scan's findings; nil before it starts, when it is not worth it or failed, and once
    /// every entry is used.
    var findings: Findings?
    /// Every source numbered below this has its entry written.
    var through = 0
    /// The scan is over: every entry is written.
    var complete = false
    /// Entries written (found free in the store).
    var found = 0
    /// The run asked the scan to stop.
    var stopping = false
    /// A claim waiting for the scan to pass source `needed` (or to end).
    var waiter: (needed: Int, wake: DispatchSemaphore)?
  }

  /// The claims' own bookkeeping (on the run's queue).
  private struct Claims {
    /// The scan was considered (started, or found not worth it).
    var tried = false
    /// Per source number, a bit: its entry was used.
    var used: [UInt64] = []
    var usedCount = 0
    /// The number after the last source a claim asked about: a pass asks in the list's order.
    var following = 0
    /// Answers given from the scan so far.
    var answered = 0
  }

  private let store: any LeasingSubscriptionStore
  private let scanner: (any ScheduleScanningStore)?
  /// The list until the scan's entries are used up (or no scan is made): a watch that reads
  /// its list again must not keep the old one alive.
  private let list: TSanVisibleMutex<SourceList?>
  private let progress = TSanVisibleMutex(Progress())
  private let claims = TSanVisibleMutex(Claims())
  /// Left when the scan's thread is done with the store.
  private let scanning = DispatchGroup()

  /// Claims of `names` (the run's list as it started) in `store`.
  init(store: any LeasingSubscriptionStore, names: SourceList) {
    self.store = store
    scanner = names.count >= Self.minimumSources ? store as? any ScheduleScanningStore : nil
    list = TSanVisibleMutex(scanner == nil ? nil : names)
  }

  /// How many claim answers came from the scan (none when the store was not scanned).
  var answeredFromScan: Int { claims.withLock { $0.answered } }

  /// The store's `claim`, with the sources the scan found not due at `now` answered from it.
  func claim(_ sources: [String], at now: Duration, dueOnly: Bool, grantLimit: Int)
    throws(StoreError) -> [ClaimAnswer]
  {
    guard dueOnly, let scanner, let names = list.withLock({ $0 }) else {
      return try store.claim(sources, at: now, dueOnly: dueOnly, grantLimit: grantLimit)
    }
    let due = now.wholeSeconds
    // Per place: the next check the scan found past `due`, or `unread` (the store's to answer);
    // numbers, not answers, which carry a whole state each.
    var found = [Int64](repeating: Self.unread, count: sources.count)
    var reasons = [UInt8](repeating: 0, count: sources.count)
    var dropped = false
    try claims.withLock { claims throws(StoreError) in
      if !claims.tried {
        claims.tried = true
        try start(scanner, names, &claims)
      }
      // Nothing to answer from (the scan not worth it, failed, stopped or used up): the store
      // answers every claim from here on, without a look-up of each name, and the list goes.
      guard progress.withLock({ $0.findings != nil }) else {
        claims.used = []
        dropped = true
        return
      }
      var ids = [Int?](repeating: nil, count: sources.count)
      var needed = -1
      for (place, source) in sources.enumerated() {
        guard let id = names.index(of: source, guess: claims.following) else { continue }
        claims.following = id + 1
        guard !Self.isUsed(id, claims.used) else { continue }
        ids[place] = id
        needed = max(needed, id)
      }
      guard needed >= 0, let findings = waitForScan(past: needed) else { return }
      for place in sources.indices {
        guard let id = ids[place] else { continue }
        let next = findings.nextCheck[id]
        guard next != Self.unread else { continue }
        claims.used[id >> 6] |= 1 << UInt64(id & 63)
        claims.usedCount += 1
        if next > due {
          found[place] = next
          reasons[place] = findings.reasons[id]
          claims.answered += 1
        }
      }
      dropped = progress.withLock { progress in
        guard progress.complete, progress.findings != nil, claims.usedCount == progress.found
        else { return false }
        progress.findings = nil
        return true
      }
      if dropped { claims.used = [] }
    }
    if dropped {
      list.withLock { $0 = nil }
      Self.trimHeap()
    }
    var asked: [String] = []
    for (place, source) in sources.enumerated() where found[place] == Self.unread {
      asked.append(source)
    }
    var answered =
      asked.isEmpty
      ? [].makeIterator()
      : try store.claim(asked, at: now, dueOnly: dueOnly, grantLimit: grantLimit).makeIterator()
    // In order, up to the first source the store did not look at (its grants ran out).
    var answers: [ClaimAnswer] = []
    answers.reserveCapacity(sources.count)
    let cases = CheckReason.allCases
    for place in sources.indices {
      if found[place] != Self.unread {
        let code = Int(reasons[place])
        answers.append(
          .notDue(at: .seconds(found[place]), reason: code > 0 ? cases[code - 1] : nil))
      } else if let answer = answered.next() {
        answers.append(answer)
      } else {
        break
      }
    }
    return answers
  }

  /// Stops a scan under way and waits for its thread to let go of the store (before the run's
  /// checkpoint, which a reader still open would cut short); its findings are not used again.
  func stopScan() {
    progress.withLock { $0.stopping = true }
    scanning.wait()
    let dropped = progress.withLock { progress in
      defer { progress.findings = nil }
      return progress.findings != nil
    }
    if dropped {
      list.withLock { $0 = nil }
      claims.withLock { $0.used = [] }
    }
  }

  private static func isUsed(_ id: Int, _ used: [UInt64]) -> Bool {
    id >> 6 < used.count && used[id >> 6] & (1 << UInt64(id & 63)) != 0
  }

  /// Starts the scan on a thread of its own, when it is worth it.
  private func start(
    _ scanner: any ScheduleScanningStore, _ names: SourceList, _ claims: inout Claims
  ) throws(StoreError) {
    guard try scanner.sourceCountEstimate() <= 4 * names.count else {
      progress.withLock { $0.complete = true }
      return
    }
    let findings = Findings(count: names.count)
    claims.used = [UInt64](repeating: 0, count: (names.count + 63) / 64)
    progress.withLock { $0.findings = findings }
    let progress = self.progress
    scanning.enter()
    DispatchQueue(label: "feedpull.schedule-scan").async { [scanning] in
      Self.scan(scanner, names, into: findings, progress)
      scanning.leave()
    }
  }

  /// The findings once the scan has written the entry of every source up to `needed` (or
  /// ended); nil when there are none to use (no scan, a failed or stopped one).
  private func waitForScan(past needed: Int) -> Findings? {
    let wake = DispatchSemaphore(value: 0)
    let ready = progress.withLock { progress -> Bool in
      guard progress.findings != nil, !progress.complete, progress.through <= needed else {
        return true
      }
      progress.waiter = (needed, wake)
      return false
    }
    if !ready { wake.wait() }
    return progress.withLock { $0.findings }
  }

  /// The scan itself, on its own thread: fills `findings`, publishing how far it got every
  /// `rowsPerPublication` rows, until the table ends, every listed source is found, or the run
  /// stops it.
  private static func scan(
    _ scanner: any ScheduleScanningStore, _ names: SourceList, into findings: Findings,
    _ progress: TSanVisibleMutex<Progress>
  ) {
    var through = 0
    var found = 0
    var rows = 0
    // Rows come in the order they were registered: mostly the list's, for a list registered
    // whole (the row after the last one found is compared first).
    var following = 0
    let cases = CheckReason.allCases
    let count = names.count
    func publish(complete: Bool, failed: Bool = false) -> Bool {
      let (going, wake) = progress.withLock { progress in
        progress.through = through
        progress.found = found
        progress.complete = complete
        if failed { progress.findings = nil }
        var wake: DispatchSemaphore?
        if let waiter = progress.waiter, complete || through > waiter.needed {
          wake = waiter.wake
          progress.waiter = nil
        }
        return (!progress.stopping, wake)
      }
      wake?.signal()
      return going
    }
    do throws(StoreError) {
      try scanner.forEachFreeSchedule { name, next, reason in
        rows += 1
        if let id = names.index(of: name, guess: following) {
          following = id + 1
          if findings.nextCheck[id] == unread {
            findings.nextCheck[id] = next
            if let reason, let place = cases.firstIndex(of: reason) {
              findings.reasons[id] = UInt8(place + 1)
            }
            found += 1
            while through < count, findings.nextCheck[through] != unread { through += 1 }
          }
        }
        if rows % rowsPerPublication == 0, !publish(complete: false) { return false }
        // Every listed source found: the rest of the table is not the list's.
        return found < count
      }
      _ = publish(complete: true)
    } catch {
      _ = publish(complete: true, failed: true)
    }
  }

  /// Gives the pages of freed memory back to the system: the arrays (9 MB at a million
  /// sources) were allocated on the run's queue, in a heap of that thread's that glibc trims
  /// only from its top, so a watch would go on holding them. `malloc_trim` is glibc's, and not
  /// in the `Glibc` module (`malloc.h`): looked up once.
  private static func trimHeap() {
    #if canImport(Glibc)
      typealias Trim = @convention(c) (Int) -> Int32
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else {
        return
      }
      _ = unsafeBitCast(symbol, to: Trim.self)(0)
    #endif
  }
}
