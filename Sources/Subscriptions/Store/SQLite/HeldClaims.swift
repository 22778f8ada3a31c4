/// The claims a SQLite store holds in its file (`claims` rows), and which of their sources it
/// still holds: a claim's row lists its sources' row ids, and the store shrinks it as their
/// ends are recorded (or they are released or postponed), deleting it with the last. Kept here
/// so that an end costs no read of the file: the writes a batch of ends needs are one statement
/// per claim it touched, not one per source.
///
/// Touched only inside the store's transactions, under its session lock (which the
/// `@unchecked Sendable` rests on).
final class HeldClaims: @unchecked Sendable {
  /// One claim: its sources in the order claimed, and which of them are still held. A class:
  /// an end changes it in place, through one look-up.
  private final class Claim {
    let names: [String]
    let rows: [Int64]
    var held: [Bool]
    var holding: Int
    /// Listed in `changed`, waiting for the next `flush`.
    var isChanged = false

    init(names: [String], rows: [Int64]) {
      self.names = names
      self.rows = rows
      held = [Bool](repeating: true, count: rows.count)
      holding = rows.count
    }
  }

  /// Where each held source is, by its row id: its claim and its place in it. Row ids, not
  /// names: an end knows its row (`StoreRowHint`, `FreshSources`), and an integer hashes for a
  /// fraction of what a URL does.
  private var places: [Int64: (claim: Int64, place: Int)] = [:]
  private var claims: [Int64: Claim] = [:]
  /// Claims whose lists changed since the last `flush`, each once.
  private var changed: [Int64] = []

  /// Notes a claim just written: `rows` (the sources' row ids) of `names`, in order. A source
  /// this store held already leaves its older claim.
  func add(claim: Int64, names: [String], rows: [Int64]) {
    for (place, row) in rows.enumerated() {
      if let old = places.updateValue((claim, place), forKey: row) { drop(old) }
    }
    claims[claim] = Claim(names: names, rows: rows)
  }

  /// Gives up the source of `row` (its end was recorded, or it was released or postponed);
  /// false when this store did not hold it.
  @discardableResult
  func release(row: Int64) -> Bool {
    guard let place = places.removeValue(forKey: row) else { return false }
    drop(place)
    return true
  }

  /// Gives up `name`, looked for among the sources held (a release, a postponement: a few a
  /// run, and this store holds at most a run's window).
  @discardableResult
  func release(_ name: String) -> Bool {
    guard let row = row(of: name) else { return false }
    return release(row: row)
  }

  /// The row id of `name` when this store holds it.
  func row(of name: String) -> Int64? {
    for claim in claims.values {
      for (place, held) in claim.held.enumerated() where held && claim.names[place] == name {
        return claim.rows[place]
      }
    }
    return nil
  }

  private func drop(_ held: (claim: Int64, place: Int)) {
    guard let claim = claims[held.claim], claim.held[held.place] else { return }
    claim.held[held.place] = false
    claim.holding -= 1
    if !claim.isChanged {
      claim.isChanged = true
      changed.append(held.claim)
    }
  }

  /// The claims changed since the last call, each with the row ids it still holds (empty: the
  /// claim is over); those that are over are forgotten.
  func flush() -> [(claim: Int64, rows: [Int64])] {
    guard !changed.isEmpty else { return [] }
    var result: [(claim: Int64, rows: [Int64])] = []
    for id in changed {
      guard let claim = claims[id] else { continue }
      claim.isChanged = false
      if claim.holding == 0 {
        claims[id] = nil
        result.append((id, []))
      } else {
        var rows: [Int64] = []
        rows.reserveCapacity(claim.holding)
        for (row, held) in zip(claim.rows, claim.held) where held { rows.append(row) }
        result.append((id, rows))
      }
    }
    changed.removeAll(keepingCapacity: true)
    return result
  }
}

/// The live claims of other processes (or of all): the row ids they hold, with when each lease
/// ends. Read at the start of a claim's transaction (a few rows: one per claim in flight
/// anywhere).
struct LiveClaims {
  private var until: [Int64: Int64] = [:]

  /// The live claims of processes other than `owner` (nil: of every process, this one's too)
  /// at `clock`, read with `statement` (`SQLiteStatements.liveClaims`).
  init(reading statement: SQLiteStatement, clock: Int64, owner: String?) throws(StoreError) {
    statement.bind(1, clock)
    statement.bind(2, owner)
    var until: [Int64: Int64] = [:]
    try statement.rows { row in
      let end = row.integer(1)
      row.withBytes(0) { json in
        ClaimList.forEachID(in: json) { id in until[id] = max(until[id] ?? end, end) }
      }
    }
    self.until = until
  }

  /// How many rows are leased.
  var count: Int { until.count }

  /// When a live lease read on the row `id` ends; nil when none holds it (no look-up at all
  /// when none was read, the usual case of a process alone on its file).
  func leaseEnd(of id: Int64) -> Int64? {
    until.isEmpty ? nil : until[id]
  }
}

/// A claim's list of row ids as the file keeps it: a JSON array of integers.
enum ClaimList {
  /// Calls `body` with each id of `json`; anything but digits separates them.
  static func forEachID(in json: UnsafeBufferPointer<UInt8>, _ body: (Int64) -> Void) {
    var value: Int64 = 0
    var inNumber = false
    for byte in json {
      if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
        inNumber = true
      } else if inNumber {
        body(value)
        value = 0
        inNumber = false
      }
    }
    if inNumber { body(value) }
  }
}
