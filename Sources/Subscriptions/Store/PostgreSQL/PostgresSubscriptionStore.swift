import FeedPullSupport
import Foundation

/// A `SubscriptionStore` in PostgreSQL, shared by any number of feedpull workers on any number
/// of machines with no coordinator but the database: `claimDue` leases due sources with
/// `FOR UPDATE SKIP LOCKED` (two workers never claim one source), `record` stores a source's
/// end and clears its lease in one transaction, and a worker that dies loses only its leases,
/// which expire and are claimed by others. The same state, schedule and item identities as
/// the SQLite store. Safe from any thread: one lock around the connection.
public final class PostgresSubscriptionStore: SubscriptionStore {
  private let connection: TSanVisibleMutex<PostgresConnection>
  private let encoder = JSONEncoder()
  /// How long a claimed source stays this worker's, in seconds: longer than a transfer may
  /// last, so that only a worker that died or lost the database loses a source to another.
  public let lease: Double
  /// Tells this worker's leases from others' (`lease_owner`).
  public let owner: String

  /// Whether `location` names a PostgreSQL database rather than a state file.
  public static func isDatabaseURI(_ location: String) -> Bool {
    location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
  }

  /// Connects to the database at `uri` (a libpq connection URI) and brings its schema up to
  /// date. `lease`: seconds a claimed source stays this worker's.
  public init(uri: String, lease: Double = 300) throws(StoreError) {
    let connection = try PostgresConnection(uri: uri)
    try PostgresSchema.migrate(connection)
    self.connection = TSanVisibleMutex(connection)
    self.lease = lease
    owner = "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UUID().uuidString.prefix(8))"
  }

  /// Adds unknown sources, due at once, in one statement (`unnest`, `ON CONFLICT DO NOTHING`).
  public func register(_ sources: [String]) throws(StoreError) {
    guard !sources.isEmpty else { return }
    try locked { connection throws(StoreError) in
      // One statement for the whole list: an array of text, unnested.
      for chunk in stride(from: 0, to: sources.count, by: 5000) {
        let part = Array(sources[chunk..<min(chunk + 5000, sources.count)])
        try connection.run(
          """
          INSERT INTO sources(source, next_check_at)
          SELECT unnest($1::text[]), 0 ON CONFLICT(source) DO NOTHING
          """, [.text(Self.textArray(part))])
      }
    }
  }

  /// Leases up to `limit` due sources that no live lease holds, earliest first; locked rows
  /// (another worker claiming at this moment) are skipped, not waited for.
  public func claimDue(now: Int64, limit: Int) throws(StoreError) -> [SubscriptionState] {
    guard limit > 0 else { return [] }
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
        RETURNING sources.next_check_at, sources.source, sources.state
        """,
        [.integer(now), .integer(Int64(min(limit, 1_000_000))), .double(lease), .text(owner)]
      ) { row throws(StoreError) in
        claimed.append(
          (row.integer(0), try Self.decode(source: row.text(1) ?? "", json: row.text(2))))
      }
      return claimed.sorted { ($0.at, $0.state.source) < ($1.at, $1.state.source) }.map(\.state)
    }
  }

  /// The source's state, leased or not (for `state list` and the watch's re-check).
  public func state(of source: String) throws(StoreError) -> SubscriptionState? {
    try locked { connection throws(StoreError) in
      var state: SubscriptionState?
      var found = false
      try connection.run("SELECT state FROM sources WHERE source = $1", [.text(source)]) {
        row throws(StoreError) in
        found = true
        state = try Self.decode(source: source, json: row.text(0))
      }
      return found ? state : nil
    }
  }

  /// The identities the source has delivered; read by the worker that holds its lease.
  public func ledger(of source: String) throws(StoreError) -> [RememberedItem] {
    try locked { connection throws(StoreError) in
      var items: [RememberedItem] = []
      try connection.run(
        """
        SELECT key, id_key, link_key, content_key, fingerprint, last_seen, last_pull, gone
        FROM items WHERE source_id = (SELECT id FROM sources WHERE source = $1)
        """, [.text(source)]
      ) { row in
        items.append(
          RememberedItem(
            key: row.integer(0), idKey: row.optionalInteger(1), linkKey: row.optionalInteger(2),
            contentKey: row.integer(3), fingerprint: row.integer(4), lastSeenAt: row.integer(5),
            lastPull: Int(row.integer(6)), gone: row.boolean(7)))
      }
      return items
    }
  }

  /// One transaction: the new state (clearing the lease), the items upserted in one
  /// statement, tombstones and retention, the host's hold.
  public func record(_ outcome: PullOutcome) throws(StoreError) {
    let json = try outcome.state.storedJSON(encoder)
    try transaction { connection throws(StoreError) in
      let state = outcome.state
      var sourceID: Int64 = 0
      try connection.run(
        """
        INSERT INTO sources(source, next_check_at, state) VALUES($1, $2::bigint, $3)
        ON CONFLICT(source) DO UPDATE SET next_check_at = $2::bigint, state = $3,
          lease_until = NULL, lease_owner = NULL
        RETURNING id
        """, [.text(state.source), .integer(state.nextCheckAt), .text(json)]
      ) { row in sourceID = row.integer(0) }
      let items = outcome.seenItems
      if !items.isEmpty {
        try connection.run(
          """
          INSERT INTO items(source_id, key, id_key, link_key, content_key, fingerprint,
            last_seen, last_pull, gone)
          SELECT $1::bigint, * FROM unnest($2::bigint[], $3::bigint[], $4::bigint[],
            $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::boolean[])
          ON CONFLICT(source_id, key) DO UPDATE SET id_key = EXCLUDED.id_key,
            link_key = EXCLUDED.link_key, content_key = EXCLUDED.content_key,
            fingerprint = EXCLUDED.fingerprint, last_seen = EXCLUDED.last_seen,
            last_pull = EXCLUDED.last_pull, gone = EXCLUDED.gone
          """,
          [
            .integer(sourceID), .integers(items.map(\.key)), .integers(items.map(\.idKey)),
            .integers(items.map(\.linkKey)), .integers(items.map(\.contentKey)),
            .integers(items.map(\.fingerprint)), .integers(items.map(\.lastSeenAt)),
            .integers(items.map { Int64($0.lastPull) }),
            .text("{" + items.map { $0.gone ? "t" : "f" }.joined(separator: ",") + "}"),
          ])
      }
      if outcome.sawWholeFeed {
        try connection.run(
          """
          UPDATE items SET gone = true
          WHERE source_id = $1::bigint AND last_pull < $2::bigint AND NOT gone
          """, [.integer(sourceID), .integer(Int64(state.pulls))])
        try connection.run(
          """
          DELETE FROM items
          WHERE source_id = $1::bigint AND last_pull <= $2::bigint AND last_seen < $3::bigint
          """,
          [
            .integer(sourceID), .integer(Int64(state.pulls - outcome.retention.pulls)),
            .integer(outcome.now - outcome.retention.seconds),
          ])
      }
      if let hold = outcome.hostHold {
        try connection.run(
          """
          INSERT INTO hosts(host, hold_until) VALUES($1, $2::bigint)
          ON CONFLICT(host) DO UPDATE SET hold_until = GREATEST(hosts.hold_until, $2::bigint)
          """, [.text(hold.host), .integer(hold.until)])
      }
    }
  }

  /// Until when `host` asked every worker to leave it alone.
  public func hostHold(_ host: String) throws(StoreError) -> Int64? {
    try locked { connection throws(StoreError) in
      var until: Int64?
      try connection.run("SELECT hold_until FROM hosts WHERE host = $1", [.text(host)]) { row in
        until = row.integer(0)
      }
      return until
    }
  }

  /// Pages through the sources by name, a thousand at a time, so that a large state is never
  /// held whole, and the lock is not held while `body` runs.
  public func forEachState(_ body: (SubscriptionState) throws(StoreError) -> Void)
    throws(StoreError)
  {
    var after: String?
    while true {
      var page: [SubscriptionState] = []
      try locked { connection throws(StoreError) in
        try connection.run(
          """
          SELECT source, state FROM sources WHERE $1::text IS NULL OR source > $1::text
          ORDER BY source LIMIT 1000
          """, [after.map(PostgresValue.text) ?? .null]
        ) { row throws(StoreError) in
          page.append(try Self.decode(source: row.text(0) ?? "", json: row.text(1)))
        }
      }
      for state in page { try body(state) }
      guard page.count == 1000, let last = page.last else { return }
      after = last.source
    }
  }

  /// Removes the source and, by cascade, its identities; false when it was unknown.
  public func forget(_ source: String) throws(StoreError) -> Bool {
    try locked { connection throws(StoreError) in
      try connection.run("DELETE FROM sources WHERE source = $1", [.text(source)]) > 0
    }
  }

  /// When (seconds since 1970) the next source can be claimed: the earliest `next_check_at`,
  /// or a lease's end when that is later (a leased source is some worker's until then); nil
  /// when there are no sources. For a worker that sleeps until there is work (watch mode).
  public func earliestNextCheck() throws(StoreError) -> Int64? {
    try locked { connection throws(StoreError) in
      var earliest: Int64?
      try connection.run(
        """
        SELECT min(GREATEST(next_check_at,
          coalesce(ceil(extract(epoch FROM lease_until))::bigint, next_check_at)))
        FROM sources
        """
      ) { row in earliest = row.optionalInteger(0) }
      return earliest
    }
  }

  /// Reserves the next request start for `host`, `spacing` seconds after the last one any
  /// worker reserved (or now, when that is past), in one atomic statement; returns the seconds
  /// to wait before starting it. This is what makes `--host-delay` hold across workers.
  public func reserveStart(host: String, spacing: Double) throws(StoreError) -> Double {
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
        """, [.text(host), .double(spacing)]
      ) { row in wait = Double(row.text(0) ?? "") ?? 0 }
      return max(0, wait)
    }
  }

  /// Gives back this worker's leases on sources it will not pull after all (a run that
  /// stops), so that other workers need not wait for them to expire.
  public func releaseLeases(of sources: [String]) throws(StoreError) {
    guard !sources.isEmpty else { return }
    try locked { connection throws(StoreError) in
      try connection.run(
        """
        UPDATE sources SET lease_until = NULL, lease_owner = NULL
        WHERE source = ANY($1::text[]) AND lease_owner = $2
        """, [.text(Self.textArray(sources)), .text(owner)])
    }
  }

  private func transaction<T>(_ body: (PostgresConnection) throws(StoreError) -> T)
    throws(StoreError) -> T
  {
    try locked { connection throws(StoreError) -> T in
      try connection.execute("BEGIN")
      do throws(StoreError) {
        let result = try body(connection)
        try connection.execute("COMMIT")
        return result
      } catch {
        if connection.isConnected { try? connection.execute("ROLLBACK") }
        throw error
      }
    }
  }

  /// Runs `body` under the lock. A connection the server dropped since the last statement (a
  /// restart) is only found out by the next one, so `body` is tried once more on a fresh
  /// connection: every operation of this store may run twice (upserts, `GREATEST`, idempotent
  /// deletes; a claim or a host start repeated only leases or reserves a little more).
  @discardableResult
  private func locked<T>(_ body: (PostgresConnection) throws(StoreError) -> T)
    throws(StoreError) -> T
  {
    try connection.withLock { connection throws(StoreError) -> T in
      do throws(StoreError) {
        return try body(connection)
      } catch {
        guard !connection.isConnected else { throw error }
        return try body(connection)
      }
    }
  }

  /// A `text[]` literal: every element quoted, quotes and backslashes escaped.
  private static func textArray(_ values: [String]) -> String {
    let quoted = values.map { value in
      "\""
        + value.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    return "{" + quoted.joined(separator: ",") + "}"
  }

  private static func decode(source: String, json: String?) throws(StoreError)
    -> SubscriptionState
  {
    try SubscriptionState.stored(source: source, json: json)
  }
}
