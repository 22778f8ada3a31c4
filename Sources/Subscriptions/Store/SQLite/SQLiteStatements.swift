/// The statements a SQLite store runs for every source, prepared once when it opens and bound
/// by position (no SQL compiled, no text hashed, no array of values built per call).
struct SQLiteStatements {
  let begin: SQLiteStatement
  let commit: SQLiteStatement
  let rollback: SQLiteStatement
  let register: SQLiteStatement
  let state: SQLiteStatement
  /// A remembered item's columns, in the order `SQLiteSubscriptionStore.rememberedItem` reads.
  static let itemColumns =
    "key, id_key, link_key, content_key, fingerprint, last_seen, last_pull, gone"
  let ledger: SQLiteStatement
  /// `ledger` of a source's row id (`forEachStateWithLedger`'s pass over the rows).
  let ledgerOfRow: SQLiteStatement
  /// A read transaction: a consistent view without the write lock `begin` takes.
  let beginRead: SQLiteStatement
  let hostHold: SQLiteStatement
  let anyHold: SQLiteStatement
  let updateState: SQLiteStatement
  let sourceID: SQLiteStatement
  let insertState: SQLiteStatement
  let upsertItem: SQLiteStatement
  let tombstone: SQLiteStatement
  let expire: SQLiteStatement
  let hold: SQLiteStatement
  let insertLeased: SQLiteStatement
  /// A claim's look at a batch of sources (a JSON array) for those due (when asked), with
  /// their places in the array, ids and states (a join, not `IN`: no temporary index of the
  /// names, and the caller places each row without hashing its name); the caller leaves out
  /// those another process's claim holds (`LiveClaims`).
  let freeMany: SQLiteStatement
  /// A claim's look at a batch of sources (a JSON array): their ids and schedules, by their
  /// place in the array.
  let probeMany: SQLiteStatement
  /// The live claims of processes other than one (`LiveClaims`; a null owner: of all).
  let liveClaims: SQLiteStatement
  /// `liveClaims`' SQL, for a scan's own connection.
  static let liveClaimsSQL =
    "SELECT sources, lease_until FROM claims WHERE lease_until > ?1 AND lease_owner IS NOT ?2"
  /// Deletes the claims whose leases ran out (their holders died or stalled).
  let expireClaims: SQLiteStatement
  /// Writes a claim: its owner, the end of its lease, its sources' row ids (a JSON array).
  let insertClaim: SQLiteStatement
  /// A claim's sources after some of them ended (`HeldClaims.flush`).
  let shrinkClaim: SQLiteStatement
  let deleteClaim: SQLiteStatement
  /// A 304's record: the columns a pull that changed nothing else moves (its schedule, when it
  /// was checked, its counters). Fewer values bound and copied than
  /// `updateState` (one of which, the source, is a key both use).
  let updateSchedule: SQLiteStatement
  /// `updateSchedule` of the row the claim read (`StoreRowHint`), found by its id rather than
  /// through the names' index, and written only when its name is still the source's (a unary
  /// `+` keeps SQLite from searching that index for it).
  let updateScheduleOfRow: SQLiteStatement
  /// A fresh source's first end (`FreshSources`): its row found by the id its claim's insert
  /// gave (no look-up of the name's index), the name compared as a guard against a row
  /// forgotten and its id reused meanwhile.
  let updateStateByID: SQLiteStatement

  init(_ connection: SQLiteConnection) throws(StoreError) {
    begin = try connection.prepare("BEGIN IMMEDIATE")
    commit = try connection.prepare("COMMIT")
    rollback = try connection.prepare("ROLLBACK")
    register = try connection.prepare(
      "INSERT OR IGNORE INTO sources(source, next_check_at) VALUES(?, 0)")
    state = try connection.prepare(
      "SELECT \(StateColumns.list) FROM sources WHERE source = ?")
    ledger = try connection.prepare(
      """
      SELECT \(Self.itemColumns)
      FROM items WHERE source_id = (SELECT id FROM sources WHERE source = ?)
      """)
    ledgerOfRow = try connection.prepare(
      "SELECT \(Self.itemColumns) FROM items WHERE source_id = ?")
    beginRead = try connection.prepare("BEGIN")
    hostHold = try connection.prepare("SELECT hold_until FROM hosts WHERE host = ?")
    anyHold = try connection.prepare("SELECT EXISTS(SELECT 1 FROM hosts WHERE hold_until > ?)")
    let columns = StateColumns.names
    let assignments = columns.indices.dropFirst().map { "\(columns[$0]) = ?\($0 + 1)" }
    updateState = try connection.prepare(
      """
      UPDATE sources SET \(assignments.joined(separator: ", ")) WHERE source = ?1
      """)
    updateStateByID = try connection.prepare(
      """
      UPDATE sources SET \(assignments.joined(separator: ", "))
      WHERE id = ?\(columns.count + 1) AND source = ?1
      """)
    sourceID = try connection.prepare("SELECT id FROM sources WHERE source = ?")
    insertState = try connection.prepare(
      """
      INSERT INTO sources(\(StateColumns.list))
      VALUES(\(columns.indices.map { "?\($0 + 1)" }.joined(separator: ", "))) RETURNING id
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
    insertLeased = try connection.prepare("INSERT INTO sources(source, next_check_at) VALUES(?, 0)")
    freeMany = try connection.prepare(
      """
      SELECT j.key, sources.id, \(StateColumns.list)
      FROM json_each(?1) AS j JOIN sources ON sources.source = j.value
      WHERE ?2 = 0 OR next_check_at <= ?3
      """)
    probeMany = try connection.prepare(
      """
      SELECT j.key, sources.id, next_check_at, next_check_reason
      FROM json_each(?1) AS j JOIN sources ON sources.source = j.value ORDER BY j.key
      """)
    liveClaims = try connection.prepare(Self.liveClaimsSQL)
    expireClaims = try connection.prepare("DELETE FROM claims WHERE lease_until <= ?1")
    insertClaim = try connection.prepare(
      "INSERT INTO claims(lease_owner, lease_until, sources) VALUES(?1, ?2, ?3)")
    shrinkClaim = try connection.prepare("UPDATE claims SET sources = ?2 WHERE id = ?1")
    deleteClaim = try connection.prepare("DELETE FROM claims WHERE id = ?1")
    updateSchedule = try connection.prepare(
      """
      UPDATE sources SET next_check_at = ?2, next_check_reason = ?3, last_check_at = ?4,
        last_unconditional_at = ?5, errors_in_row = ?6, gone = ?7, pulls = ?8
      WHERE source = ?1
      """)
    updateScheduleOfRow = try connection.prepare(
      """
      UPDATE sources SET next_check_at = ?2, next_check_reason = ?3, last_check_at = ?4,
        last_unconditional_at = ?5, errors_in_row = ?6, gone = ?7, pulls = ?8
      WHERE id = ?9 AND +source = ?1
      """)
  }

  /// Writes one source's end inside the caller's transaction: its state over its row (a row
  /// for a source never registered), its items, tombstones and retention, a hold. A statement
  /// per source: one UPDATE over a JSON batch (`->>` per column) cost SQLite twice as much. The
  /// UPDATE returns nothing (a `RETURNING` clause makes SQLite build a temporary table per
  /// row): the row's id is looked up only when items are written, which a 304 never does. An
  /// outcome that says which state its pull started from, and changed only its schedule's
  /// columns (`StateColumns.onlyScheduleDiffers`), writes those alone, to the row the claim
  /// read when its name is still the source's (`StoreRowHint`), else by name. A source its
  /// claim inserted (`freshID`) is written by the id that insert gave.
  func record(_ outcome: PullOutcome, on connection: SQLiteConnection, freshID: Int64? = nil)
    throws(StoreError)
  {
    if let freshID, try recordFresh(outcome, id: freshID, on: connection) { return }
    if let before = outcome.before, StateColumns.onlyScheduleDiffers(before, outcome.state) {
      if let row = before.storeRow.id {
        bindSchedule(outcome.state, to: updateScheduleOfRow)
        updateScheduleOfRow.bind(9, row)
        try updateScheduleOfRow.rows { _ in }
      }
      if before.storeRow.id == nil || connection.changes == 0 {
        bindSchedule(outcome.state, to: updateSchedule)
        try updateSchedule.rows { _ in }
      }
    } else {
      bindState(outcome.state, to: updateState)
      try updateState.rows { _ in }
    }
    var id: Int64?
    if connection.changes == 0 {
      bindState(outcome.state, to: insertState)
      try insertState.rows { row in id = row.integer(0) }
    } else if !outcome.seenItems.isEmpty || outcome.sawWholeFeed {
      sourceID.bind(1, outcome.state.source)
      try sourceID.rows { row in id = row.integer(0) }
    }
    if let id { try recordItems(outcome, sourceID: id) }
    try recordHold(outcome)
  }

  /// Writes the claims `held` changed: each shrunk to what it still holds, or deleted.
  func flush(_ held: HeldClaims) throws(StoreError) {
    for (claim, rows) in held.flush() {
      if rows.isEmpty {
        deleteClaim.bind(1, claim)
        try deleteClaim.rows { _ in }
      } else {
        shrinkClaim.bind(1, claim)
        shrinkClaim.bind(2, SQLiteJSON.array(of: rows))
        try shrinkClaim.rows { _ in }
      }
    }
  }

  /// The first end of a source this store inserted (`FreshSources`): its row by id, its items
  /// written (it remembered none, so there is nothing to tombstone or expire). False
  /// when the row is not the one inserted (forgotten meanwhile): the caller records it as any.
  private func recordFresh(_ outcome: PullOutcome, id: Int64, on connection: SQLiteConnection)
    throws(StoreError) -> Bool
  {
    bindState(outcome.state, to: updateStateByID)
    updateStateByID.bind(Int32(StateColumns.names.count + 1), id)
    try updateStateByID.rows { _ in }
    guard connection.changes == 1 else { return false }
    for item in outcome.seenItems {
      // Upserted still: two new items of one body may share a key.
      bindItem(item, sourceID: id, to: upsertItem)
      try upsertItem.rows { _ in }
    }
    try recordHold(outcome)
    return true
  }

  /// A state's schedule columns, in `updateSchedule`'s order.
  private func bindSchedule(_ state: SubscriptionState, to statement: SQLiteStatement) {
    statement.bind(1, state.source)
    statement.bind(2, state.nextCheckAt.wholeSeconds)
    statement.bind(3, state.nextCheckReason?.rawValue)
    statement.bind(4, state.lastCheckAt?.wholeSeconds)
    statement.bind(5, state.lastUnconditionalAt?.wholeSeconds)
    statement.bind(6, Int64(state.errorsInRow))
    statement.bind(7, Int64(state.gone ? 1 : 0))
    statement.bind(8, Int64(state.pulls))
  }

  private func bindState(_ state: SubscriptionState, to statement: SQLiteStatement) {
    StateColumns.forEachValue(of: state) { column, value in
      switch value {
      case .integer(let number): statement.bind(column + 1, number)
      case .text(let text): statement.bind(column + 1, text)
      }
    }
  }

  private func recordItems(_ outcome: PullOutcome, sourceID: Int64) throws(StoreError) {
    let state = outcome.state
    for item in outcome.seenItems {
      bindItem(item, sourceID: sourceID, to: upsertItem)
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
  }

  /// An item's columns, in `upsertItem`'s order.
  private func bindItem(_ item: RememberedItem, sourceID: Int64, to statement: SQLiteStatement) {
    statement.bind(1, sourceID)
    statement.bind(2, item.key)
    statement.bind(3, item.idKey)
    statement.bind(4, item.linkKey)
    statement.bind(5, item.contentKey)
    statement.bind(6, item.fingerprint)
    statement.bind(7, item.lastSeenAt.wholeSeconds)
    statement.bind(8, Int64(item.lastPull))
    statement.bind(9, Int64(item.gone ? 1 : 0))
  }

  private func recordHold(_ outcome: PullOutcome) throws(StoreError) {
    if let hostHold = outcome.hostHold {
      hold.bind(1, hostHold.host)
      hold.bind(2, hostHold.until.wholeSeconds)
      try hold.rows { _ in }
    }
  }
}
