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
    [
      .text(state.source), .integer(state.nextCheckAt.wholeSeconds),
      .text(state.nextCheckReason?.rawValue), .text(state.etag), .text(state.lastModified),
      .integer(state.bodyDigest.map { Int64(bitPattern: $0) }),
      .integer(state.lastCheckAt?.wholeSeconds), .integer(state.lastUnconditionalAt?.wholeSeconds),
      .integer(Int64(state.errorsInRow)), .integer(state.gone ? 1 : 0),
      .text(state.redirectTarget), .integer(Int64(state.redirectCount)), .text(state.movedTo),
      .text(state.identityMode == .id ? nil : state.identityMode.rawValue),
      .integer(Int64(state.pulls)), .text(timesText(state.newItemTimes)),
    ]
  }

  /// The state in a row whose columns from `first` on are `names`, in order.
  static func state(from row: some StateRow, at first: Int32) -> SubscriptionState {
    var state = SubscriptionState(source: row.text(first) ?? "")
    state.nextCheckAt = .seconds(row.optionalInteger(first + 1) ?? 0)
    state.nextCheckReason = row.text(first + 2).flatMap(CheckReason.init(rawValue:))
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
    state.newItemTimes = times(row.text(first + 15))
    return state
  }

  static func timesText(_ times: [Duration]) -> String? {
    times.isEmpty ? nil : times.map { String($0.wholeSeconds) }.joined(separator: ",")
  }

  static func times(_ text: String?) -> [Duration] {
    guard let text else { return [] }
    return text.split(separator: ",").compactMap { Int64($0).map { .seconds($0) } }
  }
}

/// A result row of either store, read by column number (0-based).
protocol StateRow {
  func optionalInteger(_ column: Int32) -> Int64?
  func text(_ column: Int32) -> String?
}

extension SQLiteRow: StateRow {}
