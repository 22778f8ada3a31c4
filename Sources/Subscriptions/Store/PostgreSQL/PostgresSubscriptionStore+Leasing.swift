/// Leases on the database's clock (`clock_timestamp()`), so that workers whose clocks differ
/// still agree on them, and the shared host delay (`HostPacingStore`).
extension PostgresSubscriptionStore: LeasingSubscriptionStore, HostPacingStore {
  private var leaseSeconds: PostgresValue { .double(leaseDuration.inSeconds) }

  /// In one transaction: registers the sources unknown to the database, locks the rows no other
  /// transaction holds (`SKIP LOCKED`: a worker never waits for another, so workers claiming
  /// overlapping lists, or one claiming while another records a batch of ends, never deadlock;
  /// a row another transaction holds is being claimed or recorded elsewhere, and is answered
  /// `leased`), answers each in turn, and leases the granted ones.
  public func claim(_ sources: [String], at now: Duration, dueOnly: Bool, grantLimit: Int)
    throws(StoreError) -> [ClaimAnswer]
  {
    guard !sources.isEmpty, grantLimit > 0 else { return [] }
    let owner = owner
    let lease = leaseSeconds
    return try transaction { connection throws(StoreError) in
      let names = Self.textArray(sources)
      // Only names not there: a conflict with a row another transaction is updating would
      // wait for it. In name order, so that two workers registering the same new names (lists
      // in different orders) wait for each other in one order and never deadlock.
      try connection.run(
        """
        INSERT INTO sources(source, next_check_at)
        SELECT name, 0 FROM unnest($1::text[]) AS name
        WHERE NOT EXISTS (SELECT 1 FROM sources WHERE source = name)
        ORDER BY name ON CONFLICT(source) DO NOTHING
        """, [.text(names)])
      var rows:
        [String: (id: Int64, next: Int64, reason: String?, remaining: Double?, owner: String?)] =
          [:]
      try connection.run(
        """
        SELECT id, source, next_check_at, next_check_reason,
          extract(epoch FROM lease_until - clock_timestamp())::double precision, lease_owner
        FROM sources WHERE source = ANY($1::text[]) ORDER BY id FOR UPDATE SKIP LOCKED
        """, [.text(names)]
      ) { row in
        rows[row.text(1) ?? ""] = (
          row.integer(0), row.integer(2), row.text(3), row.text(4).flatMap(Double.init),
          row.text(5)
        )
      }
      var answers: [ClaimAnswer] = []
      var grantedIDs: [Int64?] = []
      var granted = 0
      for source in sources {
        guard granted < grantLimit else { break }
        guard let found = rows[source] else {
          answers.append(.leased(until: now + leaseDuration))
          continue
        }
        if let remaining = found.remaining, remaining > 0, found.owner != owner {
          answers.append(.leased(until: now + .milliseconds(Int64(remaining * 1000))))
        } else if dueOnly && found.next > now.wholeSeconds {
          answers.append(
            .notDue(at: .seconds(found.next), reason: found.reason.flatMap(CheckReason.init)))
        } else {
          answers.append(.granted(SubscriptionState(source: source)))
          grantedIDs.append(found.id)
          granted += 1
        }
      }
      guard !grantedIDs.isEmpty else { return answers }
      var states: [String: SubscriptionState] = [:]
      try connection.run(
        """
        UPDATE sources SET lease_until = clock_timestamp() + $2::double precision * interval '1 second',
          lease_owner = $3
        WHERE id = ANY($1::bigint[])
        RETURNING \(StateColumns.list)
        """, [.integers(grantedIDs), lease, .text(owner)]
      ) { row in
        let state = StateColumns.state(from: row, at: 0)
        states[state.source] = state
      }
      return answers.map { answer in
        guard case .granted(let fresh) = answer else { return answer }
        return .granted(states[fresh.source] ?? fresh)
      }
    }
  }

  /// Leases up to `limit` due sources that no live lease holds, earliest first; rows another
  /// worker is claiming at this moment are skipped, not waited for (`SKIP LOCKED`).
  public func claimDue(at now: Duration, limit: Int) throws(StoreError) -> [SubscriptionState] {
    guard limit > 0 else { return [] }
    let owner = owner
    let lease = leaseSeconds
    return try locked { connection throws(StoreError) in
      var claimed: [(at: Int64, state: SubscriptionState)] = []
      try connection.run(
        """
        WITH due AS (
          SELECT id FROM sources
          WHERE next_check_at <= $1::bigint
            AND (lease_until IS NULL OR lease_until < clock_timestamp())
          ORDER BY next_check_at, id
          FOR UPDATE SKIP LOCKED
          LIMIT $2::bigint)
        UPDATE sources SET
          lease_until = clock_timestamp() + $3::double precision * interval '1 second',
          lease_owner = $4
        FROM due WHERE sources.id = due.id
        RETURNING \(StateColumns.names.map { "sources." + $0 }.joined(separator: ", "))
        """,
        [
          .integer(now.wholeSeconds), .integer(Int64(min(limit, 1_000_000))), lease,
          .text(owner),
        ]
      ) { row in
        let state = StateColumns.state(from: row, at: 0)
        claimed.append((state.nextCheckAt.wholeSeconds, state))
      }
      return claimed.sorted { ($0.at, $0.state.source) < ($1.at, $1.state.source) }.map(\.state)
    }
  }

  /// This worker's leases on `sources`, extended from now on the database's clock.
  public func renewLeases(of sources: [String]) throws(StoreError) {
    guard !sources.isEmpty else { return }
    let owner = owner
    let lease = leaseSeconds
    try locked { connection throws(StoreError) in
      try connection.run(
        """
        UPDATE sources SET lease_until = clock_timestamp() + $1::double precision * interval '1 second'
        WHERE source = ANY($2::text[]) AND lease_owner = $3
        """, [lease, .text(Self.textArray(sources)), .text(owner)])
    }
  }

  /// Gives back this worker's leases on sources it will not pull after all (a run that
  /// stops), so that other workers need not wait for them to expire.
  public func releaseLeases(of sources: [String]) throws(StoreError) {
    guard !sources.isEmpty else { return }
    let owner = owner
    try locked { connection throws(StoreError) in
      try connection.run(
        """
        UPDATE sources SET lease_until = NULL, lease_owner = NULL
        WHERE source = ANY($1::text[]) AND lease_owner = $2
        """, [.text(Self.textArray(sources)), .text(owner)])
    }
  }

  /// The source's next check moved to `until`, its lease given back.
  public func postpone(_ source: String, until: Duration, reason: CheckReason) throws(StoreError) {
    try locked { connection throws(StoreError) in
      try connection.run(
        """
        UPDATE sources SET next_check_at = $2::bigint, next_check_reason = $3,
          lease_until = NULL, lease_owner = NULL
        WHERE source = $1
        """, [.text(source), .integer(until.wholeSeconds), .text(reason.rawValue)])
    }
  }

  /// The earliest next check of a source no live lease holds, or the end of a lease whose
  /// source's next check is sooner, on the caller's clock; both read through the index on
  /// `next_check_at`.
  public func nextClaimable(after now: Duration) throws(StoreError) -> Duration? {
    try locked { connection throws(StoreError) in
      var free: Int64?
      try connection.run(
        """
        SELECT next_check_at FROM sources
        WHERE lease_until IS NULL OR lease_until <= clock_timestamp()
        ORDER BY next_check_at LIMIT 1
        """
      ) { row in free = row.integer(0) }
      var earliest = free.map { Duration.seconds($0) }
      try connection.run(
        """
        SELECT next_check_at,
          extract(epoch FROM lease_until - clock_timestamp())::double precision
        FROM sources WHERE next_check_at <= $1::bigint AND lease_until > clock_timestamp()
        """, [.integer(free ?? Int64.max)]
      ) { row in
        let remaining = row.text(1).flatMap(Double.init) ?? 0
        let claimable = max(
          .seconds(row.integer(0)), now + .milliseconds(Int64(remaining * 1000)))
        earliest = min(earliest ?? claimable, claimable)
      }
      return earliest
    }
  }

  /// Reserves the next request start for `host`, `spacing` after the last one any worker
  /// reserved (or now, when that is past), in one atomic statement; returns how long to wait
  /// before starting it. This is what makes `--host-delay` hold across workers.
  public func reserveStart(host: String, spacing: Duration) throws(StoreError) -> Duration {
    try locked { connection throws(StoreError) in
      var wait = 0.0
      try connection.run(
        """
        WITH clock AS (SELECT extract(epoch FROM clock_timestamp())::double precision AS now)
        INSERT INTO hosts AS h(host, hold_until, next_start_at)
        SELECT $1, 0, clock.now + $2::double precision FROM clock
        ON CONFLICT(host) DO UPDATE SET next_start_at =
          GREATEST(coalesce(h.next_start_at, 0), (SELECT now FROM clock)) + $2::double precision
        RETURNING h.next_start_at - $2::double precision - (SELECT now FROM clock)
        """, [.text(host), .double(spacing.inSeconds)]
      ) { row in wait = Double(row.text(0) ?? "") ?? 0 }
      return .milliseconds(Int64(max(0, wait) * 1000))
    }
  }
}
