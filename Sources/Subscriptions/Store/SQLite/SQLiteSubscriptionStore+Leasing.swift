/// Leases in the state file, so that processes sharing it (two overlapping cron runs, a watch
/// and a one-shot run) coordinate exactly as PostgreSQL workers do. A lease is `lease_until`
/// (milliseconds since 1970 on this machine's clock, which every process on it shares) and
/// `lease_owner`; every claim is one write transaction, so two processes never both take a
/// source.
extension SQLiteSubscriptionStore: LeasingSubscriptionStore {
  /// The machine's clock in milliseconds, which leases are measured on.
  private static func leaseClock() -> Int64 {
    let now = SubscriptionClock.wallClockNow().components
    return now.seconds * 1000 + now.attoseconds / 1_000_000_000_000_000
  }

  private var leaseMilliseconds: Int64 {
    let parts = leaseDuration.components
    return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
  }

  /// Looks at each source in turn, in one transaction: leases it when it is free (and due, when
  /// asked), registers and leases an unknown one, answers others' live leases and sources not
  /// due, until `grantLimit` are leased. A source is first offered the lease (one statement, its
  /// state returned), and only when that fails looked at to say why; after a source that was not
  /// due, the next is looked at first (a `--due` list is mostly not due, a pass mostly due).
  public func claim(_ sources: [String], at now: Duration, dueOnly: Bool, grantLimit: Int)
    throws(StoreError) -> [ClaimAnswer]
  {
    let clock = Self.leaseClock()
    let until = clock + leaseMilliseconds
    let owner = owner
    let due = now.wholeSeconds
    return try transaction { session throws(StoreError) in
      let statements = session.statements
      var answers: [ClaimAnswer] = []
      answers.reserveCapacity(min(sources.count, 1024))
      var granted = 0
      var lookFirst = false
      func lease(_ source: String) throws(StoreError) -> SubscriptionState? {
        let statement = statements.lease
        statement.bind(1, until)
        statement.bind(2, owner)
        statement.bind(3, source)
        statement.bind(4, clock)
        statement.bind(5, Int64(dueOnly ? 1 : 0))
        statement.bind(6, due)
        var state: SubscriptionState?
        try statement.rows { row in state = StateColumns.state(from: row, at: 0) }
        return state
      }
      for source in sources {
        guard granted < grantLimit else { break }
        if !lookFirst, let state = try lease(source) {
          answers.append(.granted(state))
          granted += 1
          continue
        }
        var found: (next: Int64, reason: String?, leaseUntil: Int64?, owner: String?)?
        statements.probe.bind(1, source)
        try statements.probe.rows { row in
          found = (row.integer(1), row.text(2), row.optionalInteger(3), row.text(4))
        }
        guard let found else {
          statements.insertLeased.bind(1, source)
          statements.insertLeased.bind(2, until)
          statements.insertLeased.bind(3, owner)
          try statements.insertLeased.rows { _ in }
          answers.append(.granted(SubscriptionState(source: source)))
          granted += 1
          lookFirst = false
          continue
        }
        if let leaseUntil = found.leaseUntil, leaseUntil > clock, found.owner != owner {
          answers.append(.leased(until: now + .milliseconds(leaseUntil - clock)))
          lookFirst = false
        } else if dueOnly && found.next > due {
          answers.append(
            .notDue(at: .seconds(found.next), reason: found.reason.flatMap(CheckReason.init)))
          lookFirst = true
        } else if let state = try lease(source) {
          answers.append(.granted(state))
          granted += 1
          lookFirst = false
        }
      }
      return answers
    }
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
      ) { row in claimed.append((row.integer(0), StateColumns.state(from: row, at: 1))) }
      let statements = session.statements
      for (id, _) in claimed {
        statements.leaseByID.bind(1, until)
        statements.leaseByID.bind(2, owner)
        statements.leaseByID.bind(3, id)
        try statements.leaseByID.rows { _ in }
      }
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
