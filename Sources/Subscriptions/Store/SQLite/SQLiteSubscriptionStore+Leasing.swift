/// Leases in the state file, so that processes sharing it (two overlapping cron runs, a watch
/// and a one-shot run) coordinate exactly as PostgreSQL workers do. A lease is `lease_until`
/// (milliseconds since 1970 on this machine's clock, which every process on it shares) and
/// `lease_owner`; every claim is one write transaction, so two processes never both take a
/// source.
extension SQLiteSubscriptionStore: LeasingSubscriptionStore {
  /// The machine's clock in milliseconds, which leases are measured on.
  static func leaseClock() -> Int64 {
    let now = SubscriptionClock.wallClockNow().components
    return now.seconds * 1000 + now.attoseconds / 1_000_000_000_000_000
  }

  private var leaseMilliseconds: Int64 {
    let parts = leaseDuration.components
    return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
  }

  /// Looks at the sources in order, in one transaction, until `grantLimit` are leased: leases
  /// those that are free (and due, when asked), registers and leases unknown ones, answers
  /// others' live leases and sources not due. A batch of sources is first offered the lease in
  /// one statement (their states returned), and only those it did not take are looked at to say
  /// why; after a batch mostly not due, the next is looked at first (a `--due` list is mostly
  /// not due, a pass mostly due). A statement per batch, not per source: a statement costs
  /// SQLite more than the row it changes.
  public func claim(_ sources: [String], at now: Duration, dueOnly: Bool, grantLimit: Int)
    throws(StoreError) -> [ClaimAnswer]
  {
    let clock = Self.leaseClock()
    let terms = LeaseTerms(
      until: clock + leaseMilliseconds, owner: owner, clock: clock, dueOnly: dueOnly,
      due: now.wholeSeconds)
    return try transaction { session throws(StoreError) in
      var answers: [ClaimAnswer] = []
      answers.reserveCapacity(min(sources.count, 1024))
      var granted = 0
      var next = 0
      var lookFirst = false
      while next < sources.count && granted < grantLimit {
        let size = min(lookFirst ? 256 : grantLimit - granted, sources.count - next)
        let batch = Array(sources[next..<next + size])
        // The states leased, by place in the batch: no name is hashed.
        var leased =
          lookFirst
          ? [SubscriptionState?](repeating: nil, count: batch.count)
          : try Self.lease(batch, terms, session)
        // Each name's row, by its place in the batch (nil: unknown, or leased just now).
        var found = [ProbedRow?](repeating: nil, count: batch.count)
        let unleased = batch.indices.filter { leased[$0] == nil }
        if !unleased.isEmpty {
          let rows = try Self.probe(unleased.map { batch[$0] }, terms, session)
          for (place, row) in zip(unleased, rows) { found[place] = row }
        }
        // Free and due, found by looking first (or unknown): leased in order, up to the limit.
        var free = [Bool](repeating: false, count: batch.count)
        var room = grantLimit - granted - (batch.count - unleased.count)
        var fresh: [String] = []
        var known: [String] = []
        var knownPlaces: [Int] = []
        for place in unleased {
          guard room > 0 else { break }
          if let row = found[place] {
            guard row.isFree, !(dueOnly && row.next > terms.due) else { continue }
            known.append(batch[place])
            knownPlaces.append(place)
          } else {
            fresh.append(batch[place])
          }
          free[place] = true
          room -= 1
        }
        if !fresh.isEmpty { try Self.insertLeased(fresh, terms, session) }
        if !known.isEmpty {
          let states = try Self.lease(known, terms, session)
          for (place, state) in zip(knownPlaces, states) where state != nil {
            leased[place] = state
          }
        }
        var notDue = 0
        for (place, name) in batch.enumerated() {
          if let state = leased[place] {
            answers.append(.granted(state))
            granted += 1
          } else if free[place] {
            answers.append(.granted(SubscriptionState(source: name)))
            granted += 1
          } else if let row = found[place], !row.isFree {
            answers.append(.leased(until: now + .milliseconds(row.leaseUntil - clock)))
          } else if let row = found[place], dueOnly && row.next > terms.due {
            answers.append(.notDue(at: .seconds(row.next), reason: row.reason))
            notDue += 1
          } else {
            break
          }
          next += 1
          if granted == grantLimit { break }
        }
        lookFirst = notDue * 2 > batch.count
      }
      return answers
    }
  }

  /// What a claim leases with: until when, for whom, and what counts as free and due.
  private struct LeaseTerms {
    var until: Int64
    var owner: String
    var clock: Int64
    var dueOnly: Bool
    var due: Int64
  }

  /// A source's schedule and lease, as a claim looks at it.
  private struct ProbedRow {
    var next: Int64
    var reason: CheckReason?
    /// When another process's live lease ends; 0 when none holds it (free).
    var leaseUntil: Int64

    var isFree: Bool { leaseUntil == 0 }
  }

  /// Leases those of `names` that are free (and due, when asked), in two statements (one looks,
  /// one leases); their states by place in `names` (nil: not leased).
  private static func lease(_ names: [String], _ terms: LeaseTerms, _ session: Session)
    throws(StoreError) -> [SubscriptionState?]
  {
    let statements = session.statements
    let free = statements.freeMany
    free.bind(1, SQLiteJSON.array(of: names))
    free.bind(2, terms.clock)
    free.bind(3, terms.owner)
    free.bind(4, Int64(terms.dueOnly ? 1 : 0))
    free.bind(5, terms.due)
    var ids: [Int64] = []
    ids.reserveCapacity(names.count)
    var states = [SubscriptionState?](repeating: nil, count: names.count)
    try free.rows { row in
      let place = Int(row.integer(0))
      guard place >= 0 && place < states.count else { return }
      let id = row.integer(1)
      ids.append(id)
      var state = StateColumns.state(from: row, at: 2, source: names[place])
      state.storeRow.id = id
      states[place] = state
    }
    try leaseRows(ids, until: terms.until, owner: terms.owner, session)
    return states
  }

  /// Leases the rows `ids` to `owner` until `until`, in one statement.
  private static func leaseRows(
    _ ids: [Int64], until: Int64, owner: String, _ session: Session
  ) throws(StoreError) {
    guard !ids.isEmpty else { return }
    let statement = session.statements.leaseMany
    statement.bind(1, until)
    statement.bind(2, owner)
    statement.bind(3, SQLiteJSON.array(of: ids))
    try statement.rows { _ in }
  }

  /// The schedule and lease of each of `names`, in order (nil: unknown), in one statement; a
  /// lease counts only when it is another process's and live.
  private static func probe(_ names: [String], _ terms: LeaseTerms, _ session: Session)
    throws(StoreError) -> [ProbedRow?]
  {
    let statement = session.statements.probeMany
    statement.bind(1, SQLiteJSON.array(of: names))
    var rows = [ProbedRow?](repeating: nil, count: names.count)
    try statement.rows { row in
      let place = Int(row.integer(0))
      guard place >= 0 && place < rows.count else { return }
      var leaseUntil: Int64 = 0
      if let until = row.optionalInteger(3), until > terms.clock {
        let mine = row.withBytes(4) { owner in terms.owner.utf8.elementsEqual(owner) }
        if !mine { leaseUntil = until }
      }
      rows[place] = ProbedRow(
        next: row.integer(1), reason: row.withBytes(2) { CheckReason.parsing($0) },
        leaseUntil: leaseUntil)
    }
    return rows
  }

  /// Registers `names`, unknown until now, leased to this store; notes them as fresh (their
  /// ledgers empty, their rows' ids known) until their ends are recorded.
  private static func insertLeased(_ names: [String], _ terms: LeaseTerms, _ session: Session)
    throws(StoreError)
  {
    let statement = session.statements.insertLeased
    var ids: [Int64] = []
    ids.reserveCapacity(names.count)
    for name in names {
      statement.bind(1, name)
      statement.bind(2, terms.until)
      statement.bind(3, terms.owner)
      try statement.rows { _ in }
      ids.append(session.connection.lastInsertRowID)
    }
    session.fresh.insert(names, ids: ids)
  }

  /// Leases up to `limit` due sources that no live lease holds, earliest first.
  public func claimDue(at now: Duration, limit: Int) throws(StoreError) -> [SubscriptionState] {
    guard limit > 0 else { return [] }
    let clock = Self.leaseClock()
    let until = clock + leaseMilliseconds
    let owner = owner
    return try transaction { session throws(StoreError) in
      var claimed: [(id: Int64, state: SubscriptionState)] = []
      try session.connection.run(
        """
        SELECT id, \(StateColumns.list) FROM sources
        WHERE next_check_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
        ORDER BY next_check_at, id LIMIT ?
        """, [.integer(now.wholeSeconds), .integer(clock), .integer(Int64(clamping: limit))]
      ) { row in
        var state = StateColumns.state(from: row, at: 1)
        state.storeRow.id = row.integer(0)
        claimed.append((state.storeRow.id!, state))
      }
      try Self.leaseRows(claimed.map(\.id), until: until, owner: owner, session)
      return claimed.map(\.state)
    }
  }

  /// This store's leases on `sources`, extended from now.
  public func renewLeases(of sources: [String]) throws(StoreError) {
    guard !sources.isEmpty else { return }
    let until = Self.leaseClock() + leaseMilliseconds
    let owner = owner
    try transaction { session throws(StoreError) in
      let renew = session.statements.renew
      for source in sources {
        renew.bind(1, until)
        renew.bind(2, source)
        renew.bind(3, owner)
        try renew.rows { _ in }
      }
    }
  }

  /// Gives back this store's leases on `sources`.
  public func releaseLeases(of sources: [String]) throws(StoreError) {
    guard !sources.isEmpty else { return }
    let owner = owner
    try transaction { session throws(StoreError) in
      let release = session.statements.release
      for source in sources {
        release.bind(1, source)
        release.bind(2, owner)
        try release.rows { _ in }
      }
    }
  }

  /// The source's next check moved to `until`, its lease given back.
  public func postpone(_ source: String, until: Duration, reason: CheckReason) throws(StoreError) {
    try transaction { session throws(StoreError) in
      try session.connection.run(
        """
        UPDATE sources SET next_check_at = ?, next_check_reason = ?, lease_until = NULL,
          lease_owner = NULL WHERE source = ?
        """, [.integer(until.wholeSeconds), .text(reason.rawValue), .text(source)])
    }
  }

  /// The earliest next check of a source no live lease holds, or the end of a lease whose
  /// source's next check is sooner, on the caller's clock; both read through the index on
  /// `next_check_at` (the leased sources due before the earliest free one are the few in
  /// flight somewhere).
  public func nextClaimable(after now: Duration) throws(StoreError) -> Duration? {
    let clock = Self.leaseClock()
    return try locked { session throws(StoreError) in
      var free: Int64?
      try session.connection.run(
        """
        SELECT next_check_at FROM sources WHERE lease_until IS NULL OR lease_until <= ?
        ORDER BY next_check_at LIMIT 1
        """, [.integer(clock)]
      ) { row in free = row.integer(0) }
      var earliest = free.map { Duration.seconds($0) }
      try session.connection.run(
        """
        SELECT next_check_at, lease_until FROM sources
        WHERE next_check_at <= ? AND lease_until > ?
        """, [.integer(free ?? Int64.max), .integer(clock)]
      ) { row in
        let leaseEnd = now + .milliseconds(row.integer(1) - clock)
        let claimable = max(.seconds(row.integer(0)), leaseEnd)
        earliest = min(earliest ?? claimable, claimable)
      }
      return earliest
    }
  }
}
