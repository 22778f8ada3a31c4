import CPQ

#if canImport(Glibc)
  import Glibc
#endif

/// The only door to libpq: one connection, statements run with their values bound as
/// parameters (`PQexecParams`, never SQL built from values), results turned into rows, and
/// libpq's failures into `StoreError`s. A lost connection is reset before the next statement,
/// so a database that restarts is found again without a new store. Not thread-safe by itself:
/// its one owner (`PostgresSubscriptionStore`) uses it only under a lock, which is why it may
/// be marked `Sendable`.
final class PostgresConnection: @unchecked Sendable {
  private let pq: LibPQ
  private let handle: OpaquePointer
  /// Names the database in messages, without the password a URI may carry.
  let label: String
  /// Takes the password out of libpq's messages too.
  private let scrub: PostgresPasswordScrub

  /// Connects to `uri` (a libpq connection URI or `key=value` string).
  init(uri: String) throws(StoreError) {
    let pq = try LibPQ.loaded.get()
    self.pq = pq
    guard let handle = pq.connectdb(uri) else {
      throw StoreError(message: "cannot connect to PostgreSQL: out of memory", kind: .unavailable)
    }
    self.handle = handle
    scrub = PostgresPasswordScrub(connectionString: uri)
    label = "PostgreSQL state \(scrub.redacted(uri))"
    guard pq.status(handle) == CONNECTION_OK else {
      // Every property is set: `deinit` runs and finishes the handle.
      let message = errorMessage()
      throw StoreError(message: "cannot connect to \(label): \(message)", kind: .unavailable)
    }
    try configureSession()
  }

  deinit { pq.finish(handle) }

  /// False once the server went away; the next statement tries to reconnect.
  var isConnected: Bool { pq.status(handle) == CONNECTION_OK }

  /// Runs SQL without parameters or results (a transaction's `BEGIN`, a migration step).
  func execute(_ sql: String) throws(StoreError) {
    try reconnectIfNeeded()
    let result = pq.exec(handle, sql)
    defer { pq.clear(result) }
    try check(result)
  }

  /// Runs one statement with `values` bound to `$1…`, calls `row` for each result row, and
  /// returns the number of rows it changed (or returned).
  @discardableResult
  func run(
    _ sql: String, _ values: [PostgresValue] = [],
    row: (PostgresRow) throws(StoreError) -> Void = { _ in }
  ) throws(StoreError) -> Int {
    try reconnectIfNeeded()
    let texts = values.map { $0.text.map { strdup($0) } ?? nil }
    defer { texts.forEach { free($0) } }
    let result = texts.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
        pq.execParams(handle, sql, Int32(values.count), nil, pointers.baseAddress, nil, nil, 0)
      }
    }
    defer { pq.clear(result) }
    try check(result)
    let rows = pq.ntuples(result)
    for index in 0..<rows {
      try row(PostgresRow(pq: pq, result: result, row: index))
    }
    let changed = pq.cmdTuples(result).map { String(cString: $0) } ?? ""
    return Int(changed) ?? Int(rows)
  }

  /// Resets a connection the server dropped (a restart, a network cut). Throws when the
  /// server is still unreachable: the caller backs off and asks again.
  private func reconnectIfNeeded() throws(StoreError) {
    guard pq.status(handle) != CONNECTION_OK else { return }
    pq.reset(handle)
    guard pq.status(handle) == CONNECTION_OK else {
      throw StoreError(
        message: "lost the connection to \(label): \(errorMessage())", kind: .unavailable)
    }
    try configureSession()
  }

  private func configureSession() throws(StoreError) {
    // Notices ("relation already exists, skipping") are not for a feedpull user's stderr.
    let result = pq.exec(handle, "SET client_min_messages = warning")
    defer { pq.clear(result) }
    try check(result)
  }

  private func check(_ result: OpaquePointer?) throws(StoreError) {
    let status = result.map { pq.resultStatus($0) } ?? PGRES_FATAL_ERROR
    guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return }
    let message = errorMessage()
    if pq.status(handle) != CONNECTION_OK {
      throw StoreError(message: "lost the connection to \(label): \(message)", kind: .unavailable)
    }
    throw StoreError(message: "\(label): \(message)")
  }

  /// libpq's last message, trimmed, with the password taken out (it may quote the URI).
  private func errorMessage() -> String {
    guard let message = pq.errorMessage(handle) else { return "unknown error" }
    var text = String(cString: message)
    while text.last?.isWhitespace == true { text.removeLast() }
    return scrub.scrubbed(text)
  }

  /// `postgresql://user:secret@host/db` → `postgresql://user@host/db`, and a `password`
  /// parameter as `***`: a password never reaches a message.
  static func redacted(_ uri: String) -> String {
    PostgresPasswordScrub(connectionString: uri).redacted(uri)
  }
}

/// A value bound to a statement's parameter, sent as text (the statement casts it).
enum PostgresValue {
  case null
  case integer(Int64)
  case double(Double)
  case text(String)
  /// A `bigint[]`, nulls allowed: many rows in one statement (`unnest`).
  case integers([Int64?])

  static func optional(_ value: Int64?) -> PostgresValue { value.map(Self.integer) ?? .null }
  static func optional(_ value: String?) -> PostgresValue { value.map(Self.text) ?? .null }

  var text: String? {
    switch self {
    case .null: nil
    case .integer(let number): String(number)
    case .double(let number): String(number)
    case .text(let text): text
    case .integers(let numbers):
      "{" + numbers.map { $0.map { String($0) } ?? "NULL" }.joined(separator: ",") + "}"
    }
  }
}

/// One row of a statement's result, in text form; valid only inside the `row` closure.
struct PostgresRow: StateRow {
  fileprivate let pq: LibPQ
  fileprivate let result: OpaquePointer?
  fileprivate let row: Int32

  func text(_ column: Int32) -> String? {
    guard pq.getisnull(result, row, column) == 0, let value = pq.getvalue(result, row, column)
    else { return nil }
    return String(cString: value)
  }

  func optionalInteger(_ column: Int32) -> Int64? { text(column).flatMap { Int64($0) } }

  func integer(_ column: Int32) -> Int64 { optionalInteger(column) ?? 0 }

  /// The column's text as bytes (empty for null).
  func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    guard pq.getisnull(result, row, column) == 0, let value = pq.getvalue(result, row, column)
    else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    let count = Int(pq.getlength(result, row, column))
    return value.withMemoryRebound(to: UInt8.self, capacity: count) {
      body(UnsafeBufferPointer(start: $0, count: count))
    }
  }

  /// A `boolean` column (`t` / `f`).
  func boolean(_ column: Int32) -> Bool { text(column) == "t" }
}
