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
  /// are read first, so that a row costs no look-up when none is.
  func forEachFreeSchedule(
    _ body: (UnsafeBufferPointer<UInt8>, _ nextCheck: Int64, _ reason: CheckReason?) -> Void
  ) throws(StoreError) {
    let clock = Self.leaseClock()
    let owner = owner
    try locked { session throws(StoreError) in
      let foreign = try LiveClaims(
        reading: session.statements.liveClaims, clock: clock, owner: owner)
      try session.connection.run(
        "SELECT id, source, next_check_at, next_check_reason FROM sources NOT INDEXED"
      ) { row in
        if foreign.leaseEnd(of: row.integer(0)) != nil { return }
        let reason = row.withBytes(3) { CheckReason.parsing($0) }
        let next = row.integer(2)
        row.withBytes(1) { name in body(name, next, reason) }
      }
    }
  }
}
