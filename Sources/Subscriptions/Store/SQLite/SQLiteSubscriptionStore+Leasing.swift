/// Leases in the state file, so that processes sharing it (two overlapping cron runs, a watch
/// and a one-shot run) coordinate exactly as PostgreSQL workers do. A source is leased while
/// its row id is in a live row of `claims` (`lease_until`, milliseconds since 1970 on this
/// machine's clock, which every process on it shares; `lease_owner`; see `HeldClaims`); every
/// claim is one write transaction, so two processes never both take a source.
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
  /// SQLite more than the row it changes. What is leased is one `claims` row.
  public func claim(_ sources: [String], at now: Duration, dueOnly: Bool, grantLimit: Int)
    throws(StoreError) -> [ClaimAnswer]
  {
    let clock = Self.leaseClock()
    let terms = LeaseTerms(
      until: clock + leaseMilliseconds, owner: owner, clock: clock, dueOnly: dueOnly,
      due: now.wholeSeconds)
    return try transaction { session throws(StoreError) in
      let foreign = try Self.liveClaims(terms, session)
      var claimed = ClaimRows()
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
          : try Self.offer(batch, terms, foreign, session, &claimed)
        // Each name's row, by its place in the batch (nil: unknown, or leased just now).
        var found = [ProbedRow?](repeating: nil, count: batch.count)
        let unleased = batch.indices.filter { leased[$0] == nil }
        if !unleased.isEmpty {
          let rows = try Self.probe(unleased.map { batch[$0] }, foreign, session)
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
        if !fresh.isEmpty { try Self.insertLeased(fresh, session, &claimed) }
        if !known.isEmpty {
          let states = try Self.offer(known, terms, foreign, session, &claimed)
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
      try Self.write(claimed, terms, session)
      return answers
    }
  }

  /// What a claim leases with: until when, for whom, and what counts as due.
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

  /// The sources one claim takes, by name and row id, written as one `claims` row.
  private struct ClaimRows {
    var names: [String] = []
    var rows: [Int64] = []

    mutating func append(_ name: String, row: Int64) {
      names.append(name)
      rows.append(row)
    }
  }

  /// The live claims of other processes (`includingMine`: and this store's), with the claims
  /// whose leases ran out deleted first.
  private static func liveClaims(
    _ terms: LeaseTerms, _ session: Session, includingMine: Bool = false
  ) throws(StoreError) -> LiveClaims {
    let statements = session.statements
    statements.expireClaims.bind(1, terms.clock)
    try statements.expireClaims.rows { _ in }
    return try LiveClaims(
      reading: statements.liveClaims, clock: terms.clock,
      owner: includingMine ? nil : terms.owner)
  }

  /// Takes those of `names` that are due (when asked) and that no other process's claim holds,
  /// in one statement; their states by place in `names` (nil: not taken).
  private static func offer(
    _ names: [String], _ terms: LeaseTerms, _ foreign: LiveClaims, _ session: Session,
    _ claimed: inout ClaimRows
  ) throws(StoreError) -> [SubscriptionState?] {
    let free = session.statements.freeMany
    free.bind(1, SQLiteJSON.array(of: names))
    free.bind(2, Int64(terms.dueOnly ? 1 : 0))
    free.bind(3, terms.due)
    var states = [SubscriptionState?](repeating: nil, count: names.count)
    try free.rows { row in
      let place = Int(row.integer(0))
      guard place >= 0 && place < states.count else { return }
      let id = row.integer(1)
      guard foreign.leaseEnd(of: id) == nil else { return }
      var state = StateColumns.state(from: row, at: 2, source: names[place])
      state.storeRow.id = id
      states[place] = state
      claimed.append(names[place], row: id)
    }
    return states
  }

  /// The schedule and lease of each of `names`, in order (nil: unknown), in one statement; a
  /// lease counts only when it is another process's and live.
  private static func probe(_ names: [String], _ foreign: LiveClaims, _ session: Session)
    throws(StoreError) -> [ProbedRow?]
  {
    let statement = session.statements.probeMany
    statement.bind(1, SQLiteJSON.array(of: names))
    var rows = [ProbedRow?](repeating: nil, count: names.count)
    try statement.rows { row in
      let place = Int(row.integer(0))
      guard place >= 0 && place < rows.count else { return }
      rows[place] = ProbedRow(
        next: row.integer(2), reason: row.withBytes(3) { CheckReason.parsing($0) },
        leaseUntil: foreign.leaseEnd(of: row.integer(1)) ?? 0)
    }
    return rows
  }

  /// Registers `names`, unknown until now, as part of the claim; notes them as fresh (their
  /// ledgers empty, their rows' ids known) until their ends are recorded.
  private static func insertLeased(
    _ names: [String], _ session: Session, _ claimed: inout ClaimRows
  ) throws(StoreError) {
    let statement = session.statements.insertLeased
    var ids: [Int64] = []
    ids.reserveCapacity(names.count)
    for name in names {
      statement.bind(1, name)
      try statement.rows { _ in }
      let id = session.connection.lastInsertRowID
      ids.append(id)
      claimed.append(name, row: id)
    }
    session.fresh.insert(names, ids: ids)
  }

  /// Writes `claimed` as one claim of this store, and notes it as held.
  private static func write(_ claimed: ClaimRows, _ terms: LeaseTerms, _ session: Session)
    throws(StoreError)
  {
    guard !claimed.rows.isEmpty else { return }
    let insert = session.statements.insertClaim
    insert.bind(1, terms.owner)
    insert.bind(2, terms.until)
    insert.bind(3, SQLiteJSON.array(of: claimed.rows))
    try insert.rows { _ in }
    session.held.add(
      claim: session.connection.lastInsertRowID, names: claimed.names, rows: claimed.rows)
    // Sources this store held already left their older claims.
    try session.statements.flush(session.held)
  }

  /// Leases up to `limit` due sources that no live lease holds (this store's own included: a
  /// pass does not take again what it is pulling), earliest first.
  public func claimDue(at now: Duration, limit: Int) throws(StoreError) -> [SubscriptionState] {
    guard limit > 0 else { return [] }
    let clock = Self.leaseClock()
    let terms = LeaseTerms(
      until: clock + leaseMilliseconds, owner: owner, clock: clock, dueOnly: true,
      due: now.wholeSeconds)
    return try transaction { session throws(StoreError) in
      let leased = try Self.liveClaims(terms, session, includingMine: true)
      var claimed = ClaimRows()
      var states: [SubscriptionState] = []
      // As many more as are leased, so that `limit` are left once those are passed over.
      try session.connection.run(
        """
        SELECT id, \(StateColumns.list) FROM sources WHERE next_check_at <= ?
        ORDER BY next_check_at, id LIMIT ?
        """,
        [.integer(terms.due), .integer(Int64(clamping: limit + leased.count))]
      ) { row in
        let id = row.integer(0)
        guard states.count < limit, leased.leaseEnd(of: id) == nil else { return }
        var state = StateColumns.state(from: row, at: 1)
        state.storeRow.id = id
        states.append(state)
        claimed.append(state.source, row: id)
      }
      try Self.write(claimed, terms, session)
      return states
    }
  }

  /// This store's leases on `sources`, extended from now: they leave their claims for a new one
  /// (the others of those claims keep their ends).
  public func renewLeases(of sources: [String]) throws(StoreError) {
    guard !sources.isEmpty else { return }
    let clock = Self.leaseClock()
    let terms = LeaseTerms(
      until: clock + leaseMilliseconds, owner: owner, clock: clock, dueOnly: false, due: 0)
    try transaction { session throws(StoreError) in
      var renewed = ClaimRows()
      for source in sources {
        guard let row = session.held.row(of: source) else { continue }
        renewed.append(source, row: row)
        session.held.release(source)
      }
      try session.statements.flush(session.held)
      try Self.write(renewed, terms, session)
    }
  }

  /// Gives back this store's leases on `sources`.
  public func releaseLeases(of sources: [String]) throws(StoreError) {
    guard !sources.isEmpty else { return }
    try transaction { session throws(StoreError) in
      for source in sources { session.held.release(source) }
      try session.statements.flush(session.held)
    }
  }

  /// The source's next check moved to `until`, this store's lease on it given back.
  public func postpone(_ source: String, until: Duration, reason: CheckReason) throws(StoreError) {
    try transaction { session throws(StoreError) in
      try session.connection.run(
        "UPDATE sources SET next_check_at = ?, next_check_reason = ? WHERE source = ?",
        [.integer(until.wholeSeconds), .text(reason.rawValue), .text(source)])
      session.held.release(source)
      try session.statements.flush(session.held)
    }
  }

  /// The earliest next check of a source no live lease holds (read through the index on
  /// `next_check_at`, past as many rows as are leased at most), or the end of a lease on a
  /// source whose next check is sooner, on the caller's clock. This store's own leases count:
  /// what it is pulling is not claimable now.
  public func nextClaimable(after now: Duration) throws(StoreError) -> Duration? {
    let clock = Self.leaseClock()
    return try locked { session throws(StoreError) in
      let leased = try LiveClaims(
        reading: session.statements.liveClaims, clock: clock, owner: nil)
      var earliest: Duration?
      try session.connection.run(
        "SELECT id, next_check_at FROM sources ORDER BY next_check_at LIMIT ?",
        [.integer(Int64(leased.count + 1))]
      ) { row in
        let next = Duration.seconds(row.integer(1))
        let claimable =
          leased.leaseEnd(of: row.integer(0)).map { max(next, now + .milliseconds($0 - clock)) }
          ?? next
        earliest = min(earliest ?? claimable, claimable)
      }
      return earliest
    }
  }
}
