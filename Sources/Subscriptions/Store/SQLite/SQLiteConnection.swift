import CSQLite

/// The only door to sqlite3's C API: a connection, its prepared statements (prepared once,
/// reused), and SQLite's result codes turned into `StoreError`s. Not thread-safe by itself:
/// its one owner (`SQLiteSubscriptionStore`) holds it in a `Mutex` and uses it only under it,
/// which is why it may be marked `Sendable`.
final class SQLiteConnection: @unchecked Sendable {
  private var handle: OpaquePointer?
  private var statements: [String: OpaquePointer] = [:]
  let path: String

  /// Opens (creating when missing) the database at `path`; a writer waits up to
  /// `busyMilliseconds` for another process's transaction before failing.
  init(path: String, busyMilliseconds: Int32) throws(StoreError) {
    self.path = path
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard code == SQLITE_OK else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(handle)
      handle = nil
      throw StoreError(message: "cannot open state file \(path): \(message)")
    }
    sqlite3_busy_timeout(handle, busyMilliseconds)
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close_v2(handle)
  }

  /// Runs SQL without results (several statements allowed).
  func execute(_ sql: String) throws(StoreError) {
    var error: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &error)
    if code != SQLITE_OK {
      let message = error.map { String(cString: $0) } ?? "error \(code)"
      sqlite3_free(error)
      throw failure(code, message)
    }
  }

  /// Runs one statement: binds `values`, calls `row` for each result row.
  func run(
    _ sql: String, _ values: [SQLiteValue] = [],
    row: (SQLiteRow) throws(StoreError) -> Void = { _ in }
  ) throws(StoreError) {
    let statement = try prepared(sql)
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    for (offset, value) in values.enumerated() {
      let position = Int32(offset + 1)
      switch value {
      case .null: sqlite3_bind_null(statement, position)
      case .integer(let number): sqlite3_bind_int64(statement, position, number)
      case .text(let text):
        sqlite3_bind_text(statement, position, text, -1, feedpull_sqlite_transient())
      }
    }
    while true {
      let code = sqlite3_step(statement)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else {
        throw failure(code, String(cString: sqlite3_errmsg(handle)))
      }
      try row(SQLiteRow(statement: statement))
    }
  }

  /// Rows changed by the last statement.
  var changes: Int { Int(sqlite3_changes(handle)) }

  private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
    if let statement = statements[sql] { return statement }
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw failure(code, String(cString: sqlite3_errmsg(handle)))
    }
    statements[sql] = statement
    return statement
  }

  private func failure(_ code: Int32, _ message: String) -> StoreError {
    let primary = code & 0xff
    if primary == SQLITE_BUSY || primary == SQLITE_LOCKED {
      return StoreError(
        message: "state file \(path) is busy: another feedpull process is writing it; "
          + "gave up waiting", isBusy: true)
    }
    return StoreError(message: "state file \(path): \(message)")
  }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
  case null
  case integer(Int64)
  case text(String)

  static func optional(_ value: Int64?) -> SQLiteValue { value.map(SQLiteValue.integer) ?? .null }
  static func optional(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
}

/// The current row of a stepping statement; valid only inside the `row` closure.
struct SQLiteRow {
  fileprivate let statement: OpaquePointer

  func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

  func optionalInteger(_ column: Int32) -> Int64? {
    sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : integer(column)
  }

  func text(_ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(statement, column) else { return nil }
    return String(cString: bytes)
  }
}
