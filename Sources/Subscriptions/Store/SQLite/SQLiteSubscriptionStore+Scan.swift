/// One sequential read of the `sources` table for a run over a long list: a claim looks a name
/// up in the name index and then its row, two random page reads a source once the file outgrows
/// SQLite's page cache (a million sources: 2 s of reads for what a table scan reads in 0.3 s).
extension SQLiteSubscriptionStore: ScheduleScanningStore {
  /// The highest row id: the number of sources ever registered, without a scan.
  func sourceCountEstimate() throws(StoreError) -> Int {
    try locked { session throws(StoreError) in
      var highest: Int64 = 0
      try session.connection.run("SELECT max(id) FROM sources") { row in highest = row.integer(0) }
      return Int(highest)
    }
  }

  /// `NOT INDEXED`: the table in row order, never the `next_check_at` index and a row lookup
  /// for each of its entries. A lease counts when it is live and another process's; those few
  /// are read first, so that a row costs no look-up when none is. Read through a second
  /// connection to the file, which WAL lets read while the store's own writes: the store's lock
  /// is not held, and a run's claims and records go on during the scan. A store opened
  /// read-only (or a file a second connection cannot open) is scanned under its lock.
  func forEachFreeSchedule(
    _ body: (UnsafeBufferPointer<UInt8>, _ nextCheck: Int64, _ reason: CheckReason?) -> Bool
  ) throws(StoreError) {
    let reader =
      readOnly ? nil : try? SQLiteConnection(path: path, busyMilliseconds: busyMilliseconds)
    if let reader {
      try reader.execute("PRAGMA query_only = ON")
      try Self.scan(reader, reader.prepare(SQLiteStatements.liveClaimsSQL), owner: owner, body)
      return
    }
    try locked { session throws(StoreError) in
      try Self.scan(session.connection, session.statements.liveClaims, owner: owner, body)
    }
  }

  private static func scan(
    _ connection: SQLiteConnection, _ liveClaims: SQLiteStatement, owner: String,
    _ body: (UnsafeBufferPointer<UInt8>, _ nextCheck: Int64, _ reason: CheckReason?) -> Bool
  ) throws(StoreError) {
    let foreign = try LiveClaims(reading: liveClaims, clock: leaseClock(), owner: owner)
    try connection.statement(
      "SELECT id, source, next_check_at, next_check_reason FROM sources NOT INDEXED"
    ).stepRows { row in
      if foreign.leaseEnd(of: row.integer(0)) != nil { return true }
      let reason = row.withBytes(3) { CheckReason.parsing($0) }
      let next = row.integer(2)
      return row.withBytes(1) { name in body(name, next, reason) }
    }
  }
}
