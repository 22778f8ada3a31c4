/// A source's state as the columns of the `sources` table, the same in SQLite and PostgreSQL (so
/// that a state moved from one reads in the other), declared once here: the order both stores
/// select and write them in, and how a value maps to a column. Every number is an integer
/// column (moments in whole seconds since 1970, `gone` as 0 or 1, the body digest's 64 bits as a
/// signed integer); the recent new-item times are one text column of comma-separated seconds.
/// Columns instead of one encoded blob: a store reads a due source's validators with no decoder
/// at all, and `state list` reads the schedule without the rest.
enum StateColumns {
  /// The columns, in order; `source` first.
  static let names = [
    "source", "next_check_at", "next_check_reason", "etag", "last_modified", "body_digest",
    "last_check_at", "last_unconditional_at", "errors_in_row", "gone", "redirect_target",
    "redirect_count", "moved_to", "identity_mode", "pulls", "new_item_times",
  ]

  /// `source, next_check_at, …` for a SELECT.
  static let list = names.joined(separator: ", ")

  /// A value of one column, in the column order.
  enum Value {
    case integer(Int64?)
    case text(String?)
  }

  /// The state's values, in the column order.
  static func values(of state: SubscriptionState) -> [Value] {
    var values: [Value] = []
    values.reserveCapacity(names.count)
    forEachValue(of: state) { _, value in values.append(value) }
    return values
  }

  /// Calls `body` with each column's number (0-based) and the state's value for it, in order,
  /// without building an array (a store binds them straight into its statement).
  static func forEachValue(of state: SubscriptionState, _ body: (Int32, Value) -> Void) {
    body(0, .text(state.source))
    body(1, .integer(state.nextCheckAt.wholeSeconds))
    body(2, .text(state.nextCheckReason?.rawValue))
    body(3, .text(state.etag))
    body(4, .text(state.lastModified))
    body(5, .integer(state.bodyDigest.map { Int64(bitPattern: $0) }))
    body(6, .integer(state.lastCheckAt?.wholeSeconds))
    body(7, .integer(state.lastUnconditionalAt?.wholeSeconds))
    body(8, .integer(Int64(state.errorsInRow)))
    body(9, .integer(state.gone ? 1 : 0))
    body(10, .text(state.redirectTarget))
    body(11, .integer(Int64(state.redirectCount)))
    body(12, .text(state.movedTo))
    body(13, .text(state.identityMode == .id ? nil : state.identityMode.rawValue))
    body(14, .integer(Int64(state.pulls)))
    body(15, .text(timesText(state.newItemTimes)))
  }

  /// The state in a row whose columns from `first` on are `names`, in order. `source`: the
  /// name the caller looked the row up by (a claim), used instead of a copy of the column's.
  static func state(from row: some StateRow, at first: Int32, source: String? = nil)
    -> SubscriptionState
  {
    var state = SubscriptionState(source: source ?? row.text(first) ?? "")
    state.nextCheckAt = .seconds(row.optionalInteger(first + 1) ?? 0)
    state.nextCheckReason = row.withBytes(first + 2) { CheckReason.parsing($0) }
    state.etag = row.text(first + 3)
    state.lastModified = row.text(first + 4)
    state.bodyDigest = row.optionalInteger(first + 5).map { UInt64(bitPattern: $0) }
    state.lastCheckAt = row.optionalInteger(first + 6).map { .seconds($0) }
    state.lastUnconditionalAt = row.optionalInteger(first + 7).map { .seconds($0) }
    state.errorsInRow = Int(row.optionalInteger(first + 8) ?? 0)
    state.gone = (row.optionalInteger(first + 9) ?? 0) != 0
    state.redirectTarget = row.text(first + 10)
    state.redirectCount = Int(row.optionalInteger(first + 11) ?? 0)
    state.movedTo = row.text(first + 12)
    state.identityMode = row.text(first + 13).flatMap(IdentityMode.init(rawValue:)) ?? .id
    state.pulls = Int(row.optionalInteger(first + 14) ?? 0)
    state.newItemTimes = row.withBytes(first + 15) { times($0) }
    return state
  }

  /// Whether `after` differs from `before` in no column but the schedule's, which a pull that
  /// saw no change moves: next check and its reason, last checks, errors in a row, gone, pulls.
  /// Such an end (a 304, above all) is written as those columns alone.
  static func onlyScheduleDiffers(_ before: SubscriptionState, _ after: SubscriptionState)
    -> Bool
  {
    before.source == after.source && before.etag == after.etag
      && before.lastModified == after.lastModified && before.bodyDigest == after.bodyDigest
      && before.redirectTarget == after.redirectTarget
      && before.redirectCount == after.redirectCount && before.movedTo == after.movedTo
      && before.identityMode == after.identityMode && before.newItemTimes == after.newItemTimes
  }

  static func timesText(_ times: [Duration]) -> String? {
    times.isEmpty ? nil : times.map { String($0.wholeSeconds) }.joined(separator: ",")
  }

  /// `1796000000,1796003600` → the moments, read byte by byte where the column's text lies (a
  /// split and an `Int64(_:)` per number were a third of reading a row; no string is made of the
  /// column).
  static func times(_ bytes: UnsafeBufferPointer<UInt8>) -> [Duration] {
    guard !bytes.isEmpty else { return [] }
    var times: [Duration] = []
    var value: Int64 = 0
    var negative = false
    var digits = false
    func flush() {
      if digits { times.append(.seconds(negative ? -value : value)) }
      value = 0
      negative = false
      digits = false
    }
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
        digits = true
      case UInt8(ascii: "-"): negative = true
      default: flush()
      }
    }
    flush()
    return times
  }
}

/// A result row of either store, read by column number (0-based).
protocol StateRow {
  func optionalInteger(_ column: Int32) -> Int64?
  func text(_ column: Int32) -> String?
  /// The column's text as bytes (empty for null), for a caller that reads it in place.
  func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T
}

extension SQLiteRow: StateRow {}
