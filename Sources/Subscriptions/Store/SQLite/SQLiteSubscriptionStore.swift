import FeedPullSupport
import Foundation
import HTTPWorker

/// The default `SubscriptionStore`: one SQLite file in WAL mode (readers never wait for the
/// writer; a second process's writes wait up to the busy timeout, then fail with a clear
/// message). One transaction per source's end. Safe from any thread: one lock around the
/// connection.
public final class SQLiteSubscriptionStore: SubscriptionStore {
  private let connection: TSanVisibleMutex<SQLiteConnection>
  private let encoder = JSONEncoder()

  /// Opens or creates the state at `path`, and brings its schema up to date.
  public init(path: String, busyTimeout: Double = 10) throws(StoreError) {
    let connection = try SQLiteConnection(
      path: path, busyMilliseconds: Int32(busyTimeout * 1000))
    try connection.execute("PRAGMA journal_mode = WAL")
    // WAL with NORMAL: a committed transaction survives a crash of the process (kill -9);
    // only a power loss may lose the last ones, which then repeat items, never lose them.
    try connection.execute("PRAGMA synchronous = NORMAL")
    try SQLiteSchema.migrate(connection)
    self.connection = TSanVisibleMutex(connection)
  }

  /// Adds unknown sources, due at once, in one transaction.
  public func register(_ sources: [String]) throws(StoreError) {
    try transaction { connection throws(StoreError) in
      for source in sources {
        try connection.run(
          "INSERT OR IGNORE INTO sources(source, next_check_at) VALUES(?, 0)", [.text(source)])
      }
    }
  }

  /// The due sources, earliest first, from the index on `next_check_at`; no lease (one file, one writer at a time).
  public func claimDue(now: Int64, limit: Int) throws(StoreError) -> [SubscriptionState] {
    try read { connection throws(StoreError) in
      var states: [SubscriptionState] = []
      try connection.run(
        "SELECT source, state FROM sources WHERE next_check_at <= ? ORDER BY next_check_at LIMIT ?",
        [.integer(now), .integer(Int64(min(limit, Int(Int64.max))))]
      ) { row throws(StoreError) in
        states.append(try Self.decode(source: row.text(0) ?? "", json: row.text(1)))
      }
      return states
    }
  }

  /// The source's state, if it is known.
  public func state(of source: String) throws(StoreError) -> SubscriptionState? {
    try read { connection throws(StoreError) in
      var state: SubscriptionState?
      try connection.run("SELECT state FROM sources WHERE source = ?", [.text(source)]) {
        row throws(StoreError) in
        state = try Self.decode(source: source, json: row.text(0))
      }
      return state
    }
  }

  /// Read from the indexed column, without decoding whole states.
  public func nextCheckTimes(of sources: [String]) throws(StoreError) -> [String: Int64] {
    try read { connection throws(StoreError) in
      var times: [String: Int64] = [:]
      times.reserveCapacity(sources.count)
      for source in sources {
        try connection.run(
          "SELECT next_check_at FROM sources WHERE source = ?", [.text(source)]
        ) { row in times[source] = row.integer(0) }
      }
      return times
    }
  }

  /// The identities the source has delivered, tombstones included.
  public func ledger(of source: String) throws(StoreError) -> [RememberedItem] {
    try read { connection throws(StoreError) in
      var items: [RememberedItem] = []
      try connection.run(
        """
        SELECT key, id_key, link_key, content_key, fingerprint, last_seen, last_pull, gone
        FROM items WHERE source_id = (SELECT id FROM sources WHERE source = ?)
        """, [.text(source)]
      ) { row in
        items.append(
          RememberedItem(
            key: row.integer(0), idKey: row.optionalInteger(1), linkKey: row.optionalInteger(2),
            contentKey: row.integer(3), fingerprint: row.integer(4), lastSeenAt: row.integer(5),
            lastPull: Int(row.integer(6)), gone: row.integer(7) != 0))
      }
      return items
    }
  }

  /// One transaction: the state, the items, tombstones and retention, the host's hold.
  public func record(_ outcome: PullOutcome) throws(StoreError) {
    let json = try outcome.state.storedJSON(encoder)
    try transaction { connection throws(StoreError) in
      let state = outcome.state
      try connection.run(
        """
        INSERT INTO sources(source, next_check_at, state) VALUES(?1, ?2, ?3)
        ON CONFLICT(source) DO UPDATE SET next_check_at = ?2, state = ?3
        """, [.text(state.source), .integer(state.nextCheckAt), .text(json)])
      var sourceID: Int64 = 0
      try connection.run("SELECT id FROM sources WHERE source = ?", [.text(state.source)]) {
        row in sourceID = row.integer(0)
      }
      for item in outcome.seenItems {
        try connection.run(
          """
          INSERT OR REPLACE INTO items(source_id, key, id_key, link_key, content_key,
            fingerprint, last_seen, last_pull, gone) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .integer(sourceID), .integer(item.key), .optional(item.idKey),
            .optional(item.linkKey), .integer(item.contentKey), .integer(item.fingerprint),
            .integer(item.lastSeenAt), .integer(Int64(item.lastPull)),
            .integer(item.gone ? 1 : 0),
          ])
      }
      if outcome.sawWholeFeed {
        try connection.run(
          "UPDATE items SET gone = 1 WHERE source_id = ? AND last_pull < ? AND gone = 0",
          [.integer(sourceID), .integer(Int64(state.pulls))])
        try connection.run(
          "DELETE FROM items WHERE source_id = ? AND last_pull <= ? AND last_seen < ?",
          [
            .integer(sourceID), .integer(Int64(state.pulls - outcome.retention.pulls)),
            .integer(outcome.now - outcome.retention.seconds),
          ])
      }
      if let hold = outcome.hostHold {
        try connection.run(
          """
          INSERT INTO hosts(host, hold_until) VALUES(?1, ?2)
          ON CONFLICT(host) DO UPDATE SET hold_until = max(hold_until, ?2)
          """, [.text(hold.host), .integer(hold.until)])
      }
    }
  }

  /// Until when `host` asked to be left alone.
  public func hostHold(_ host: String) throws(StoreError) -> Int64? {
    try read { connection throws(StoreError) in
      var until: Int64?
      try connection.run("SELECT hold_until FROM hosts WHERE host = ?", [.text(host)]) { row in
        until = row.integer(0)
      }
      return until
    }
  }

  /// Every state, in source order, one row at a time.
  public func forEachState(_ body: (SubscriptionState) throws(StoreError) -> Void)
    throws(StoreError)
  {
    try read { connection throws(StoreError) in
      try connection.run("SELECT source, state FROM sources ORDER BY source") {
        row throws(StoreError) in
        try body(try Self.decode(source: row.text(0) ?? "", json: row.text(1)))
      }
    }
  }

  /// Removes the source and its identities; false when it was unknown.
  public func forget(_ source: String) throws(StoreError) -> Bool {
    try transaction { connection throws(StoreError) in
      try connection.run(
        "DELETE FROM items WHERE source_id = (SELECT id FROM sources WHERE source = ?)",
        [.text(source)])
      try connection.run("DELETE FROM sources WHERE source = ?", [.text(source)])
      return connection.changes > 0
    }
  }

  /// SQLite's own check of the file (`PRAGMA integrity_check`): "ok" when it is sound.
  public func integrityCheck() throws(StoreError) -> String {
    try read { connection throws(StoreError) in
      var lines: [String] = []
      try connection.run("PRAGMA integrity_check") { row in lines.append(row.text(0) ?? "") }
      return lines.joined(separator: "\n")
    }
  }

  /// Runs `body` in one write transaction (taken at once, so a busy file waits here).
  private func transaction<T>(_ body: (SQLiteConnection) throws(StoreError) -> T)
    throws(StoreError) -> T
  {
    try connection.withLock { connection throws(StoreError) -> T in
      try connection.execute("BEGIN IMMEDIATE")
      do throws(StoreError) {
        let result = try body(connection)
        try connection.execute("COMMIT")
        return result
      } catch {
        try? connection.execute("ROLLBACK")
        throw error
      }
    }
  }

  private func read<T>(_ body: (SQLiteConnection) throws(StoreError) -> T) throws(StoreError) -> T {
    try connection.withLock { connection throws(StoreError) -> T in try body(connection) }
  }

  private static func decode(source: String, json: String?) throws(StoreError)
    -> SubscriptionState
  {
    try SubscriptionState.stored(source: source, json: json)
  }
}
