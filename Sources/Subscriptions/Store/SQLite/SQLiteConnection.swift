import CSQLite

/// The only door to sqlite3's C API: a connection, its prepared statements, and SQLite's result
/// codes turned into `StoreError`s. Not thread-safe by itself: its one owner
/// (`SQLiteSubscriptionStore`) uses it only under a lock, which is why it may be marked
/// `Sendable`.
final class SQLiteConnection: @unchecked Sendable {
  private(set) var handle: OpaquePointer?
  private var cached: [String: SQLiteStatement] = [:]
  /// The file, as messages name it.
  let path: String

  /// Opens the database at `path` (which must exist: `SQLiteStateFile` makes it, with its
  /// mode), read-write or read-only; a writer waits up to `busyMilliseconds` for another
  /// process's transaction before failing. `uri`: `path` is a `file:` URI (read-only fallbacks).
  init(path: String, readOnly: Bool = false, uri: Bool = false, busyMilliseconds: Int32)
    throws(StoreError)
  {
    self.path = path
    Self.configureOnce()
    var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
    if uri { flags |= SQLITE_OPEN_URI }
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard code == SQLITE_OK else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(handle)
      handle = nil
      throw StoreError(message: "cannot open state file \(path): \(message)")
    }
    sqlite3_busy_timeout(handle, busyMilliseconds)
  }

  /// An empty in-memory database, named `path` in messages (the copy of a file that could only
  /// be read, brought to the current schema without writing the file).
  private init(memoryNamed path: String) throws(StoreError) {
    self.path = path
    Self.configureOnce()
    let code = sqlite3_open_v2(
      ":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
    guard code == SQLITE_OK else {
      sqlite3_close_v2(handle)
      handle = nil
      throw StoreError(message: "cannot read state file \(path): out of memory")
    }
  }

  /// SQLite's process-wide settings, made once before the first connection opens: its memory
  /// statistics off (feedpull never reads them; kept, they cost every allocation SQLite makes a
  /// global mutex and two `malloc_usable_size` calls, about 1% of an unchanged pass). When
  /// something else in the process initialized SQLite first, the call changes nothing.
  private static let configured: Void = { _ = feedpull_sqlite_memstatus_off() }()

  private static func configureOnce() { _ = configured }

  deinit {
    cached.removeAll()
    sqlite3_close_v2(handle)
  }

  /// A copy of the whole database in memory (SQLite's online backup).
  func copyIntoMemory() throws(StoreError) -> SQLiteConnection {
    let copy = try SQLiteConnection(memoryNamed: path)
    guard let backup = sqlite3_backup_init(copy.handle, "main", handle, "main") else {
      throw failure(sqlite3_errcode(copy.handle), String(cString: sqlite3_errmsg(copy.handle)))
    }
    let code = sqlite3_backup_step(backup, -1)
    sqlite3_backup_finish(backup)
    guard code == SQLITE_DONE else { throw failure(code, "cannot copy the state") }
    return copy
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

  /// A statement prepared once, for a caller that keeps it.
  func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw failure(code, String(cString: sqlite3_errmsg(handle)))
    }
    return SQLiteStatement(statement, connection: self)
  }

  /// Runs one statement (prepared on first use and kept): binds `values`, calls `row` for each
  /// result row.
  func run(
    _ sql: String, _ values: [SQLiteValue] = [],
    row: (SQLiteRow) throws(StoreError) -> Void = { _ in }
  ) throws(StoreError) {
    try statement(sql).run(values, row: row)
  }

  /// The statement of `sql`, prepared on first use and kept.
  func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
    if let known = cached[sql] { return known }
    let statement = try prepare(sql)
    cached[sql] = statement
    return statement
  }

  /// Whether SQLite keeps its process-wide memory statistics (off once a connection is open:
  /// `configured`; they read 0 bytes in use then).
  static var keepsMemoryStatistics: Bool { sqlite3_memory_used() != 0 }

  /// Rows changed by the last statement.
  var changes: Int { Int(sqlite3_changes(handle)) }

  /// The row id of the last row inserted.
  var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  func failure(_ code: Int32, _ message: String) -> StoreError {
    let primary = code & 0xff
    if primary == SQLITE_BUSY || primary == SQLITE_LOCKED {
      return StoreError(
        message: "state file \(path) is busy: another feedpull process is writing it; "
          + "gave up waiting", kind: .busy)
    }
    return StoreError(message: "state file \(path): \(message)")
  }
}

/// A prepared statement of one connection, bound and stepped by its owner under the
/// connection's lock; reset after every use.
final class SQLiteStatement: @unchecked Sendable {
  private let handle: OpaquePointer
  private unowned let connection: SQLiteConnection

  fileprivate init(_ handle: OpaquePointer, connection: SQLiteConnection) {
    self.handle = handle
    self.connection = connection
  }

  deinit { sqlite3_finalize(handle) }

  /// Binds `values` to the parameters in order, steps through every row, then resets.
  func run(_ values: [SQLiteValue], row: (SQLiteRow) throws(StoreError) -> Void = { _ in })
    throws(StoreError)
  {
    for (offset, value) in values.enumerated() { bind(Int32(offset + 1), value) }
    try rows(row)
  }

  /// Steps through every row of what is bound, then resets the statement and its bindings.
  func rows(_ row: (SQLiteRow) throws(StoreError) -> Void) throws(StoreError) {
    try stepRows { current throws(StoreError) in
      try row(current)
      return true
    }
  }

  /// Steps through the rows of what is bound while `row` returns true (a scan whose caller has
  /// seen enough stops reading the table), then resets the statement and its bindings.
  func stepRows(while row: (SQLiteRow) throws(StoreError) -> Bool) throws(StoreError) {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else {
        throw connection.failure(code, String(cString: sqlite3_errmsg(connection.handle)))
      }
      guard try row(SQLiteRow(statement: handle)) else { return }
    }
  }

  /// Binds one parameter (1-based).
  func bind(_ position: Int32, _ value: SQLiteValue) {
    switch value {
    case .null: sqlite3_bind_null(handle, position)
    case .integer(let number): sqlite3_bind_int64(handle, position, number)
    case .text(let text):
      sqlite3_bind_text(handle, position, text, -1, feedpull_sqlite_transient())
    }
  }

  /// Binds an integer, or null.
  func bind(_ position: Int32, _ value: Int64?) {
    guard let value else {
      _ = sqlite3_bind_null(handle, position)
      return
    }
    sqlite3_bind_int64(handle, position, value)
  }

  /// Binds text, or null.
  func bind(_ position: Int32, _ value: String?) {
    guard var value else {
      _ = sqlite3_bind_null(handle, position)
      return
    }
    value.withUTF8 { bytes in
      _ = bytes.withMemoryRebound(to: CChar.self) { text in
        sqlite3_bind_text(
          handle, position, text.baseAddress, Int32(text.count), feedpull_sqlite_transient())
      }
    }
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
    let count = Int(sqlite3_column_bytes(statement, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// The column's text as bytes, for a caller that parses it in place.
  func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    let bytes = sqlite3_column_text(statement, column)
    let count = Int(sqlite3_column_bytes(statement, column))
    return body(UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
  }
}
