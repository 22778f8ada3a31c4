import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A run's claims of named sources, answered `notDue` without the store for the sources a
/// single read of the store found not due: a `--due` pass over a list of a million sources, or
/// a watch starting on one, looks at every name once, and a claim's look at each name costs the
/// store two random reads (its index, its row) where one scan of the table reads them all.
///
/// The store is scanned at the first claim of due sources, when the list is long
/// (`minimumSources`) and a good part of the store (a quarter of its sources, or more): the
/// scan costs a read of the whole table however few of its sources are named. What it found is
/// kept as 9 bytes a named source, and each source's entry is used once and then forgotten, so
/// that a watch asks the store itself from the second look at a source on (its schedule by
/// then is the store's, not the scan's); once every entry is used, the arrays are freed.
/// Sources the scan did not find free (unknown, leased by another process) and those due by
/// the time of their claim go to the store's claim as before. An answer read by the scan is as
/// old as the scan: a pass that takes seconds says `not_due` for its last source as the store
/// was when it began, which a claim, reading each name a little later, would not; nothing is
/// leased or pulled on that answer.
final class ScheduleSnapshot: Sendable {
  /// Lists shorter than this are claimed name by name.
  static let minimumSources = 4096

  private struct Entries {
    /// Per source number: its next check (seconds), or `unread`.
    var nextCheck: [Int64] = []
    /// Per source number: its reason's place in `CheckReason.allCases` + 1 (0: none).
    var reasons: [UInt8] = []
    /// Entries not yet used.
    var left = 0
    /// The number after the last source a claim asked about: a pass asks in the list's order.
    var following = 0
    /// The scan was tried (done, or found not worth it, or failed).
    var tried = false
    /// Answers given from the scan so far.
    var answered = 0
  }

  private static let unread = Int64.min

  private let store: any LeasingSubscriptionStore
  private let scanner: (any ScheduleScanningStore)?
  /// The list until the scan's entries are used up (or no scan is made): a watch that reads
  /// its list again must not keep the old one alive.
  private let list: TSanVisibleMutex<SourceList?>
  private let entries = TSanVisibleMutex(Entries())

  /// Claims of `names` (the run's list as it started) in `store`.
  init(store: any LeasingSubscriptionStore, names: SourceList) {
    self.store = store
    scanner = names.count >= Self.minimumSources ? store as? any ScheduleScanningStore : nil
    list = TSanVisibleMutex(scanner == nil ? nil : names)
  }

  /// How many claim answers came from the scan (none when the store was not scanned).
  var answeredFromScan: Int { entries.withLock { $0.answered } }

  /// The store's `claim`, with the sources the scan found not due at `now` answered from it.
  func claim(_ sources: [String], at now: Duration, dueOnly: Bool, grantLimit: Int)
    throws(StoreError) -> [ClaimAnswer]
  {
    guard dueOnly, let scanner else {
      return try store.claim(sources, at: now, dueOnly: dueOnly, grantLimit: grantLimit)
    }
    guard let names = list.withLock({ $0 }) else {
      return try store.claim(sources, at: now, dueOnly: dueOnly, grantLimit: grantLimit)
    }
    let due = now.wholeSeconds
    // Per place: the next check the scan found past `due`, or `unread` (the store's to answer);
    // numbers, not answers, which carry a whole state each.
    var found = [Int64](repeating: Self.unread, count: sources.count)
    var reasons = [UInt8](repeating: 0, count: sources.count)
    var asked: [String] = []
    var dropped = false
    try entries.withLock { entries throws(StoreError) in
      if !entries.tried {
        entries.tried = true
        try scan(scanner, names, into: &entries)
        dropped = entries.left == 0
      }
      guard entries.left > 0 else { return }
      for (place, source) in sources.enumerated() {
        guard let id = names.index(of: source, guess: entries.following) else { continue }
        entries.following = id + 1
        let next = entries.nextCheck[id]
        guard next != Self.unread else { continue }
        entries.nextCheck[id] = Self.unread
        entries.left -= 1
        if next > due {
          found[place] = next
          reasons[place] = entries.reasons[id]
          entries.answered += 1
        }
      }
      if entries.left == 0 {
        entries = Entries(tried: true, answered: entries.answered)
        dropped = true
      }
    }
    if dropped {
      list.withLock { $0 = nil }
      Self.trimHeap()
    }
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

  private func scan(
    _ scanner: any ScheduleScanningStore, _ names: SourceList, into entries: inout Entries
  )
    throws(StoreError)
  {
    guard try scanner.sourceCountEstimate() <= 4 * names.count else { return }
    var nextCheck = [Int64](repeating: Self.unread, count: names.count)
    var reasons = [UInt8](repeating: 0, count: names.count)
    var left = 0
    // Rows come in the order they were registered: mostly the list's, for a list registered
    // whole (the row after the last one found is compared first).
    var following = 0
    let cases = CheckReason.allCases
    try scanner.forEachFreeSchedule { name, next, reason in
      guard let id = names.index(of: name, guess: following) else { return }
      following = id + 1
      guard nextCheck[id] == Self.unread else { return }
      nextCheck[id] = next
      if let reason, let place = cases.firstIndex(of: reason) { reasons[id] = UInt8(place + 1) }
      left += 1
    }
    entries = Entries(
      nextCheck: nextCheck, reasons: reasons, left: left, tried: true, answered: entries.answered)
  }
}
