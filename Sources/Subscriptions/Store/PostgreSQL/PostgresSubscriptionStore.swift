import FeedPullSupport
import Foundation

/// A `SubscriptionStore` in PostgreSQL, shared by any number of feedpull workers on any number
/// of machines with no coordinator but the database: claims lease sources (two workers never
/// claim one source), `record` stores ends and clears their leases in one transaction, and a
/// worker that dies loses only its leases, which expire and are claimed by others. The same
/// state, schedule and item identities as the SQLite store. Safe from any thread: one lock
/// around the connection.
public final class PostgresSubscriptionStore: SubscriptionStore {
  let connection: TSanVisibleMutex<PostgresConnection>
  /// How long a claimed source stays this worker's without renewal, on the database's clock.
  public let leaseDuration: Duration
  /// Tells this worker's leases from others' (`lease_owner`).
  public let owner = LeaseOwner.make()

  /// Whether `location` names a PostgreSQL database rather than a state file.
  public static func isDatabaseURI(_ location: String) -> Bool {
    location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
  }

  /// Connects to the database at `uri` (a libpq connection URI) and brings its schema up to
  /// date; with `create` false, a database without feedpull's tables is a `noState` error and
  /// is left untouched. `lease`: how long a claimed source stays this worker's unless renewed.
  public init(uri: String, lease: Duration = .seconds(60), create: Bool = true)
    throws(StoreError)
  {
    let connection = try PostgresConnection(uri: uri)
    try PostgresSchema.migrate(connection, create: create)
    self.connection = TSanVisibleMutex(connection)
    leaseDuration = lease
  }

  /// Adds unknown sources, due at once, in one statement per 5,000 (`unnest`).
  public func register(_ sources: [String]) throws(StoreError) {
    guard !sources.isEmpty else { return }
    try locked { connection throws(StoreError) in
      for chunk in stride(from: 0, to: sources.count, by: 5000) {
        let part = Array(sources[chunk..<min(chunk + 5000, sources.count)])
        try connection.run(
          """
          INSERT INTO sources(source, next_check_at)
          SELECT name, 0 FROM unnest($1::text[]) AS name ORDER BY name
          ON CONFLICT(source) DO NOTHING
          """, [.text(Self.textArray(part))])
      }
    }
  }

  /// The source's state, leased or not.
  public func state(of source: String) throws(StoreError) -> SubscriptionState? {
    try locked { connection throws(StoreError) in
      var state: SubscriptionState?
      try connection.run(
        "SELECT \(StateColumns.list) FROM sources WHERE source = $1", [.text(source)]
      ) { row in state = StateColumns.state(from: row, at: 0) }
      return state
    }
  }

  /// The due sources, earliest first, without leasing them.
  public func dueSources(at now: Duration, limit: Int) throws(StoreError) -> [SubscriptionState] {
    try locked { connection throws(StoreError) in
      var states: [SubscriptionState] = []
      try connection.run(
        """
        SELECT \(StateColumns.list) FROM sources WHERE next_check_at <= $1::bigint
        ORDER BY next_check_at, id LIMIT $2::bigint
        """, [.integer(now.wholeSeconds), .integer(Int64(min(limit, 1_000_000)))]
      ) { row in states.append(StateColumns.state(from: row, at: 0)) }
      return states
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
            contentKey: row.integer(3), fingerprint: row.integer(4),
            lastSeenAt: .seconds(row.integer(5)), lastPull: Int(row.integer(6)),
            gone: row.boolean(7)))
      }
      return items
    }
  }

  /// One transaction for the batch: each new state (clearing its lease), its items upserted in
  /// one statement, tombstones and retention, a host's hold.
  public func record(_ outcomes: [PullOutcome]) throws(StoreError) {
    guard !outcomes.isEmpty else { return }
    try transaction { connection throws(StoreError) in
      for outcome in outcomes { try Self.record(outcome, on: connection) }
    }
  }

  private static let upsertState: String = {
    let names = StateColumns.names
    let values = names.indices.map { index in
      "$\(index + 1)" + (isText(names[index]) ? "" : "::bigint")
    }
    let updates = names.dropFirst().map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
    return """
      INSERT INTO sources(\(StateColumns.list)) VALUES(\(values.joined(separator: ", ")))
      ON CONFLICT(source) DO UPDATE SET \(updates), lease_until = NULL, lease_owner = NULL
      RETURNING id
      """
  }()

  private static func isText(_ column: String) -> Bool {
    [
      "source", "next_check_reason", "etag", "last_modified", "redirect_target", "moved_to",
      "identity_mode", "new_item_times",
    ].contains(column)
  }

  private static func record(_ outcome: PullOutcome, on connection: PostgresConnection)
    throws(StoreError)
  {
    let state = outcome.state
    var sourceID: Int64 = 0
    let values: [PostgresValue] = StateColumns.values(of: state).map { value in
      switch value {
      case .integer(let number): .optional(number)
      case .text(let text): .optional(text)
      }
    }
    try connection.run(upsertState, values) { row in sourceID = row.integer(0) }
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
          .integers(items.map(\.fingerprint)), .integers(items.map(\.lastSeenAt.wholeSeconds)),
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
          .integer((outcome.now - outcome.retention.age).wholeSeconds),
        ])
    }
    if let hold = outcome.hostHold {
      try connection.run(
        """
        INSERT INTO hosts(host, hold_until) VALUES($1, $2::bigint)
        ON CONFLICT(host) DO UPDATE SET hold_until = GREATEST(hosts.hold_until, $2::bigint)
        """, [.text(hold.host), .integer(hold.until.wholeSeconds)])
    }
  }

  /// Until when `host` asked every worker to leave it alone.
  public func hostHold(_ host: String) throws(StoreError) -> Duration? {
    try locked { connection throws(StoreError) in
      var until: Duration?
      try connection.run("SELECT hold_until FROM hosts WHERE host = $1", [.text(host)]) { row in
        until = .seconds(row.integer(0))
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
          SELECT \(StateColumns.list) FROM sources
          WHERE $1::text IS NULL OR source > $1::text ORDER BY source LIMIT 1000
          """, [after.map(PostgresValue.text) ?? .null]
        ) { row in page.append(StateColumns.state(from: row, at: 0)) }
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

  func transaction<T>(_ body: (PostgresConnection) throws(StoreError) -> T)
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
  func locked<T>(_ body: (PostgresConnection) throws(StoreError) -> T)
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
  static func textArray(_ values: [String]) -> String {
    let quoted = values.map { value in
      "\""
        + value.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    return "{" + quoted.joined(separator: ",") + "}"
  }
}
