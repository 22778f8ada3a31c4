/// The statements a SQLite store runs for every source, prepared once when it opens and bound
/// by position (no SQL text hashed, no array of values built per call).
struct SQLiteStatements {
  let register: SQLiteStatement
  let state: SQLiteStatement
  let ledger: SQLiteStatement
  let hostHold: SQLiteStatement
  let upsertState: SQLiteStatement
  let upsertItem: SQLiteStatement
  let tombstone: SQLiteStatement
  let expire: SQLiteStatement
  let hold: SQLiteStatement
  /// A claim's look at one source: its id, schedule and lease, without the rest of its state.
  let probe: SQLiteStatement
  let stateByID: SQLiteStatement
  let lease: SQLiteStatement
  let insertLeased: SQLiteStatement

  init(_ connection: SQLiteConnection) throws(StoreError) {
    register = try connection.prepare(
      "INSERT OR IGNORE INTO sources(source, next_check_at) VALUES(?, 0)")
    state = try connection.prepare(
      "SELECT \(StateColumns.list) FROM sources WHERE source = ?")
    ledger = try connection.prepare(
      """
      SELECT key, id_key, link_key, content_key, fingerprint, last_seen, last_pull, gone
      FROM items WHERE source_id = (SELECT id FROM sources WHERE source = ?)
      """)
    hostHold = try connection.prepare("SELECT hold_until FROM hosts WHERE host = ?")
    let columns = StateColumns.names
    let updates = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
    upsertState = try connection.prepare(
      """
      INSERT INTO sources(\(StateColumns.list))
      VALUES(\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
      ON CONFLICT(source) DO UPDATE SET \(updates), lease_until = NULL, lease_owner = NULL
      RETURNING id
      """)
    upsertItem = try connection.prepare(
      """
      INSERT OR REPLACE INTO items(source_id, key, id_key, link_key, content_key,
        fingerprint, last_seen, last_pull, gone) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    tombstone = try connection.prepare(
      "UPDATE items SET gone = 1 WHERE source_id = ? AND last_pull < ? AND gone = 0")
    expire = try connection.prepare(
      "DELETE FROM items WHERE source_id = ? AND last_pull <= ? AND last_seen < ?")
    hold = try connection.prepare(
      """
      INSERT INTO hosts(host, hold_until) VALUES(?1, ?2)
      ON CONFLICT(host) DO UPDATE SET hold_until = max(hold_until, ?2)
      """)
    probe = try connection.prepare(
      """
      SELECT id, next_check_at, next_check_reason, lease_until, lease_owner
      FROM sources WHERE source = ?
      """)
    stateByID = try connection.prepare("SELECT \(StateColumns.list) FROM sources WHERE id = ?")
    lease = try connection.prepare(
      "UPDATE sources SET lease_until = ?, lease_owner = ? WHERE id = ?")
    insertLeased = try connection.prepare(
      "INSERT INTO sources(source, next_check_at, lease_until, lease_owner) VALUES(?, 0, ?, ?)")
  }

  /// Writes one source's end inside the caller's transaction.
  func record(_ outcome: PullOutcome) throws(StoreError) {
    let state = outcome.state
    for (offset, value) in StateColumns.values(of: state).enumerated() {
      switch value {
      case .integer(let number): upsertState.bind(Int32(offset + 1), number)
      case .text(let text): upsertState.bind(Int32(offset + 1), text)
      }
    }
    var sourceID: Int64 = 0
    try upsertState.rows { row in sourceID = row.integer(0) }
    for item in outcome.seenItems {
      upsertItem.bind(1, sourceID)
      upsertItem.bind(2, item.key)
      upsertItem.bind(3, item.idKey)
      upsertItem.bind(4, item.linkKey)
      upsertItem.bind(5, item.contentKey)
      upsertItem.bind(6, item.fingerprint)
      upsertItem.bind(7, item.lastSeenAt.wholeSeconds)
      upsertItem.bind(8, Int64(item.lastPull))
      upsertItem.bind(9, Int64(item.gone ? 1 : 0))
      try upsertItem.rows { _ in }
    }
    if outcome.sawWholeFeed {
      tombstone.bind(1, sourceID)
      tombstone.bind(2, Int64(state.pulls))
      try tombstone.rows { _ in }
      expire.bind(1, sourceID)
      expire.bind(2, Int64(state.pulls - outcome.retention.pulls))
      expire.bind(3, (outcome.now - outcome.retention.age).wholeSeconds)
      try expire.rows { _ in }
    }
    if let hostHold = outcome.hostHold {
      hold.bind(1, hostHold.host)
      hold.bind(2, hostHold.until.wholeSeconds)
      try hold.rows { _ in }
    }
  }
}
