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

  /// Looks at each source in turn, in one transaction: registers and leases unknown ones,
  /// answers others' live leases and (with `dueOnly`) sources not due, leases the rest, until
  /// `grantLimit` are leased.
  public func claim(_ sources: [String], at now: Duration, dueOnly: Bool, grantLimit: Int)
    throws(StoreError) -> [ClaimAnswer]
  {
    let clock = Self.leaseClock()
    let until = clock + leaseMilliseconds
    let owner = owner
    return try transaction { session throws(StoreError) in
      let statements = session.statements
      var answers: [ClaimAnswer] = []
      answers.reserveCapacity(sources.count)
      var granted = 0
      for source in sources {
        guard granted < grantLimit else { break }
        var found: (id: Int64, next: Int64, reason: String?, leaseUntil: Int64?, owner: String?)?
        statements.probe.bind(1, source)
        try statements.probe.rows { row in
          found = (
            row.integer(0), row.integer(1), row.text(2), row.optionalInteger(3), row.text(4)
          )
        }
        guard let found else {
          statements.insertLeased.bind(1, source)
          statements.insertLeased.bind(2, until)
          statements.insertLeased.bind(3, owner)
          try statements.insertLeased.rows { _ in }
          answers.append(.granted(SubscriptionState(source: source)))
          granted += 1
          continue
        }
        if let leaseUntil = found.leaseUntil, leaseUntil > clock, found.owner != owner {
          answers.append(.leased(until: now + .milliseconds(leaseUntil - clock)))
          continue
        }
        if dueOnly && found.next > now.wholeSeconds {
          answers.append(
            .notDue(at: .seconds(found.next), reason: found.reason.flatMap(CheckReason.init)))
          continue
        }
        statements.lease.bind(1, until)
        statements.lease.bind(2, owner)
        statements.lease.bind(3, found.id)
        try statements.lease.rows { _ in }
        var state = SubscriptionState(source: source)
        statements.stateByID.bind(1, found.id)
        try statements.stateByID.rows { row in state = StateColumns.state(from: row, at: 0) }
        answers.append(.granted(state))
        granted += 1
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
        statements.lease.bind(1, until)
        statements.lease.bind(2, owner)
        statements.lease.bind(3, id)
        try statements.lease.rows { _ in }
      }
      return claimed.map(\.state)
    }
  }

  /// Every lease of this store, extended from now.
  public func renewLeases() throws(StoreError) {
    let until = Self.leaseClock() + leaseMilliseconds
    let owner = owner
    try transaction { session throws(StoreError) in
      try session.connection.run(
        "UPDATE sources SET lease_until = ? WHERE lease_owner = ?", [.integer(until), .text(owner)]
      )
    }
  }

  /// Gives back this store's leases on `sources`.
  public func releaseLeases(of sources: [String]) throws(StoreError) {
    guard !sources.isEmpty else { return }
    let owner = owner
    try transaction { session throws(StoreError) in
      for source in sources {
        try session.connection.run(
          """
          UPDATE sources SET lease_until = NULL, lease_owner = NULL
          WHERE source = ? AND lease_owner = ?
          """, [.text(source), .text(owner)])
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

  /// The earliest next check of a source no live lease holds, or the earliest end of a lease
  /// (when its source's next check is sooner), on the caller's clock.
  public func nextClaimable(after now: Duration) throws(StoreError) -> Duration? {
    let clock = Self.leaseClock()
    return try locked { session throws(StoreError) in
      var earliest: Duration?
      try session.connection.run(
        """
        SELECT next_check_at FROM sources WHERE lease_until IS NULL OR lease_until <= ?
        ORDER BY next_check_at LIMIT 1
        """, [.integer(clock)]
      ) { row in earliest = .seconds(row.integer(0)) }
      // Leased sources are few (those in flight somewhere): the partial index on the owner
      // finds them without a scan.
      try session.connection.run(
        """
        SELECT next_check_at, lease_until FROM sources
        WHERE lease_owner IS NOT NULL AND lease_until > ?
        """, [.integer(clock)]
      ) { row in
        let leaseEnd = now + .milliseconds(row.integer(1) - clock)
        let claimable = max(.seconds(row.integer(0)), leaseEnd)
        earliest = min(earliest ?? claimable, claimable)
      }
      return earliest
    }
  }
}
