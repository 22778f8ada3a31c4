import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The default store: one SQLite file in WAL mode (readers never wait for the writer; a second
/// process's writes wait up to the busy timeout, then fail with a clear message), shared safely
/// by any number of processes through leases (`LeasingSubscriptionStore`). One transaction per
/// batch of source ends. Safe from any thread: one lock around the connection.
public final class SQLiteSubscriptionStore: SubscriptionStore {
  /// How a state file is opened.
  public struct Options: Sendable {
    /// How long a write waits for another process's transaction before it fails.
    public var busyTimeout: Duration = .seconds(10)
    /// How long a claim holds without renewal: a process killed with `kill -9` loses its
    /// sources to others this long after its last renewal.
    public var lease: Duration = .seconds(60)
    /// Create the file (and its directories) when it is missing; false: a missing file is a
    /// `noState` error and nothing is created.
    public var create = true
    /// Open without writing (`state list`, `export`): works on a file this process may only
    /// read; a file of an older schema is read through an upgraded copy in memory.
    public var readOnly = false
    /// Creating, read-write, a 10 s busy timeout and 60 s leases.
    public init() {}
  }

  struct Session {
    let connection: SQLiteConnection
    let statements: SQLiteStatements
    /// The store's `fresh`, for the claim that inserts sources.
    let fresh: FreshSources
    /// The claims this store holds in the file.
    let held: HeldClaims
  }

  let session: TSanVisibleMutex<Session>
  /// The file.
  public let path: String
  /// How long a claim holds without renewal.
  public let leaseDuration: Duration
  /// Tells this store's leases from other processes' (`lease_owner`).
  let owner = LeaseOwner.make()
  /// Opened read-only (`Options.readOnly`).
  let readOnly: Bool
  /// How long a statement waits for another process's transaction (`Options.busyTimeout`), on
  /// each of this store's connections, the schedule scan's included.
  let busyMilliseconds: Int32
  /// Sources this store inserted and has not recorded: their ledgers are known to be empty.
  let fresh = FreshSources()

  /// Opens the state at `path` (creating it, mode 0600, in directories made 0700, unless
  /// `options` say not to), and brings its schema up to date.
  public init(path: String, options: Options = Options()) throws(StoreError) {
    self.path = path
    leaseDuration = options.lease
    readOnly = options.readOnly
    try SQLiteStateFile.prepare(path, create: options.create && !options.readOnly)
    let busy = Int32(clamping: options.busyTimeout.components.seconds * 1000)
    busyMilliseconds = busy
    let connection =
      options.readOnly
      ? try Self.openReadOnly(path, busyMilliseconds: busy)
      : try Self.openForWriting(path, create: options.create, busyMilliseconds: busy)
    session = TSanVisibleMutex(
      Session(
        connection: connection, statements: try SQLiteStatements(connection), fresh: fresh,
        held: HeldClaims()))
  }

  /// Opens or creates the state at `path`, with a busy timeout of `busyTimeout` seconds.
  public convenience init(path: String, busyTimeout: Double) throws(StoreError) {
    var options = Options()
    options.busyTimeout = .milliseconds(Int64(busyTimeout * 1000))
    try self.init(path: path, options: options)
  }

  /// The page size of a file this store creates (`PRAGMA page_size`): small, because each
  /// transaction writes every page it touched to the log (see `openForWriting`).
  static let newFilePageSize: Int64 = 1024
  /// How much log a run writes before SQLite folds it into the file (40 MB), whatever the
  /// file's page size.
  static let autocheckpointBytes: Int64 = 40_960_000

  private static func openForWriting(_ path: String, create: Bool, busyMilliseconds: Int32)
    throws(StoreError) -> SQLiteConnection
  {
    let connection = try SQLiteConnection(path: path, busyMilliseconds: busyMilliseconds)
    if !create, try SQLiteSchema.version(connection) == 0 {
      throw StoreError(message: "no state in \(path) (an empty file)", kind: .noState)
    }
    // A new file's pages are 1 KB (a file that has pages keeps its own size: SQLite changes it
    // only by a VACUUM, which is never run). Every transaction writes each page it touched to
    // the log, and a first pull's transactions touch a few pages each at random places of the
    // names' and the schedule's indexes: 4 KB pages wrote 2.71 MB of log for a 0.31 MB state of
    // 1,000 sources, 1 KB pages about half of that (measured in bench/README.md, section 6).
    try connection.execute("PRAGMA page_size = \(newFilePageSize)")
    try connection.execute("PRAGMA journal_mode = WAL")
    // WAL with NORMAL: a committed transaction survives a crash of the process (kill -9);
    // only a power loss may lose the last ones, which then repeat items, never lose them.
    try connection.execute("PRAGMA synchronous = NORMAL")
    // The log is folded into the file at the end of every run (`checkpoint`); meanwhile folding
    // it every 4 MB (SQLite's default) cost a first pull of 10,000 feeds, which writes some 28 MB
    // of log, 8% more CPU time than folding it every 40 MB (counted in pages: the file's own).
    var pageSize: Int64 = 4096
    try connection.run("PRAGMA page_size") { row in pageSize = max(512, row.integer(0)) }
    try connection.execute("PRAGMA wal_autocheckpoint = \(autocheckpointBytes / pageSize)")
    try SQLiteSchema.migrate(connection)
    return connection
  }

  /// Read-only: opened as SQLite allows (a WAL file needs its `-shm`, or a directory where it
  /// can make one; failing that it is read as immutable), and read through an upgraded copy in
  /// memory when its schema is older than this feedpull's.
  private static func openReadOnly(_ path: String, busyMilliseconds: Int32) throws(StoreError)
    -> SQLiteConnection
  {
    var connection = try SQLiteConnection(
      path: path, readOnly: true, busyMilliseconds: busyMilliseconds)
    var version: Int64
    do {
      version = try SQLiteSchema.version(connection)
    } catch {
      connection = try SQLiteConnection(
        path: "file:\(uriPath(path))?immutable=1", readOnly: true, uri: true,
        busyMilliseconds: busyMilliseconds)
      version = try SQLiteSchema.version(connection)
    }
    guard version > 0 else {
      throw StoreError(message: "no state in \(path) (an empty file)", kind: .noState)
    }
    try SQLiteSchema.refuseNewer(version, connection)
    guard version < SQLiteSchema.currentVersion else {
      try connection.execute("PRAGMA query_only = ON")
      return connection
    }
    let copy = try connection.copyIntoMemory()
    try SQLiteSchema.migrate(copy)
    // Read-only, as the file it copies: a write must fail, not vanish with the copy.
    try copy.execute("PRAGMA query_only = ON")
    return copy
  }

  /// `path` for a `file:` URI: the characters a URI gives a meaning to, escaped.
  private static func uriPath(_ path: String) -> String {
    var escaped = ""
    for character in path.unicodeScalars {
      switch character {
      case "%", "?", "#": escaped += "%" + String(character.value, radix: 16, uppercase: true)
      default: escaped.unicodeScalars.append(character)
      }
    }
    return escaped
  }

  /// Adds unknown sources, due at once, in one transaction.
  public func register(_ sources: [String]) throws(StoreError) {
    try transaction { session throws(StoreError) in
      for source in sources {
        session.statements.register.bind(1, source)
        try session.statements.register.rows { _ in }
      }
    }
  }

  /// The source's state, if it is known.
  public func state(of source: String) throws(StoreError) -> SubscriptionState? {
    try locked { session throws(StoreError) in
      var state: SubscriptionState?
      session.statements.state.bind(1, source)
      try session.statements.state.rows { row in
        state = StateColumns.state(from: row, at: 0)
      }
      return state
    }
  }

  /// The due sources, earliest first, from the index on `next_check_at`.
  public func dueSources(at now: Duration, limit: Int) throws(StoreError) -> [SubscriptionState] {
    try locked { session throws(StoreError) in
      var states: [SubscriptionState] = []
      try session.connection.run(
        "SELECT \(StateColumns.list) FROM sources WHERE next_check_at <= ? "
          + "ORDER BY next_check_at, id LIMIT ?",
        [.integer(now.wholeSeconds), .integer(Int64(clamping: limit))]
      ) { row in states.append(StateColumns.state(from: row, at: 0)) }
      return states
    }
  }

  /// The identities the source has delivered, tombstones included.
  public func ledger(of source: String) throws(StoreError) -> [RememberedItem] {
    // Inserted by this store's claim and leased to it since: nothing recorded yet.
    if fresh.contains(source) { return [] }
    return try locked { session throws(StoreError) in
      var items: [RememberedItem] = []
      session.statements.ledger.bind(1, source)
      try session.statements.ledger.rows { row in
        items.append(Self.rememberedItem(row))
      }
      return items
    }
  }

  /// A remembered item from a row of `SQLiteStatements.itemColumns`.
  private static func rememberedItem(_ row: SQLiteRow) -> RememberedItem {
    RememberedItem(
      key: row.integer(0), idKey: row.optionalInteger(1), linkKey: row.optionalInteger(2),
      contentKey: row.integer(3), fingerprint: row.integer(4),
      lastSeenAt: .seconds(row.integer(5)), lastPull: Int(row.integer(6)),
      gone: row.integer(7) != 0)
  }

  /// One transaction for the batch: each state, its items, tombstones and retention, a host's
  /// hold; then this store's claims on them given back (a statement per claim, not per source).
  public func record(_ outcomes: [PullOutcome]) throws(StoreError) {
    guard !outcomes.isEmpty else { return }
    try transaction { session throws(StoreError) in
      for outcome in outcomes {
        let source = outcome.state.source
        let freshID = fresh.take(source)
        try session.statements.record(outcome, on: session.connection, freshID: freshID)
        if let row = freshID ?? outcome.before?.storeRow.id, session.held.release(row: row) {
          continue
        }
        session.held.release(source)
      }
      try session.statements.flush(session.held)
    }
  }

  /// Whether a hold lasts past `now`, in one look at the (small) hosts table.
  public func hasHostHolds(now: Duration) throws(StoreError) -> Bool {
    try locked { session throws(StoreError) in
      var any = false
      session.statements.anyHold.bind(1, now.wholeSeconds)
      try session.statements.anyHold.rows { row in any = row.integer(0) != 0 }
      return any
    }
  }

  /// The holds of `hosts` that last past `now`.
  public func hostHolds(of hosts: Set<String>, now: Duration) throws(StoreError)
    -> [String: Duration]
  {
    try locked { session throws(StoreError) in
      let statements = session.statements
      var holds: [String: Duration] = [:]
      for host in hosts {
        statements.hostHold.bind(1, host)
        try statements.hostHold.rows { row in
          let until = Duration.seconds(row.integer(0))
          if until > now { holds[host] = until }
        }
      }
      return holds
    }
  }

  /// Until when `host` asked to be left alone.
  public func hostHold(_ host: String) throws(StoreError) -> Duration? {
    try locked { session throws(StoreError) in
      var until: Duration?
      session.statements.hostHold.bind(1, host)
      try session.statements.hostHold.rows { row in until = .seconds(row.integer(0)) }
      return until
    }
  }

  /// Every state, in source order, one row at a time.
  public func forEachState(_ body: (SubscriptionState) throws(StoreError) -> Void)
    throws(StoreError)
  {
    try locked { session throws(StoreError) in
      try session.connection.run("SELECT \(StateColumns.list) FROM sources ORDER BY source") {
        row throws(StoreError) in
        try body(StateColumns.state(from: row, at: 0))
      }
    }
  }

  /// In one read transaction and one pass over the sources, each one's items read by its row
  /// id: asked for source by source, each call took and gave back SQLite's file locks (a
  /// million sources spent 7 s of system time in `fcntl`), and the names were held meanwhile.
  /// `body` runs holding the store; it must not call it.
  public func forEachStateWithLedger(
    _ body: (SubscriptionState, [RememberedItem]) throws(StoreError) -> Void
  ) throws(StoreError) {
    try transaction(reading: true) { session throws(StoreError) in
      let items = session.statements.ledgerOfRow
      try session.connection.run("SELECT id, \(StateColumns.list) FROM sources ORDER BY source") {
        row throws(StoreError) in
        let state = StateColumns.state(from: row, at: 1)
        var ledger: [RememberedItem] = []
        items.bind(1, row.integer(0))
        try items.rows { item in ledger.append(Self.rememberedItem(item)) }
        try body(state, ledger)
      }
    }
  }

  /// Removes the source and its identities; false when it was unknown.
  public func forget(_ source: String) throws(StoreError) -> Bool {
    _ = fresh.take(source)
    return try transaction { session throws(StoreError) in
      try session.connection.run(
        "DELETE FROM items WHERE source_id = (SELECT id FROM sources WHERE source = ?)",
        [.text(source)])
      session.held.release(source)
      try session.statements.flush(session.held)
      try session.connection.run("DELETE FROM sources WHERE source = ?", [.text(source)])
      return session.connection.changes > 0
    }
  }

  /// Folds the write-ahead log into the database file and empties it, so that the file alone
  /// holds the whole state (a copy of it is complete). A reader holding an old snapshot may
  /// keep part of the log; it is folded at the next checkpoint.
  public func checkpoint() throws(StoreError) {
    guard !readOnly else { return }
    try locked { session throws(StoreError) in
      try session.connection.run("PRAGMA wal_checkpoint(TRUNCATE)")
    }
  }

  /// SQLite's own check of the file (`PRAGMA integrity_check`): "ok" when it is sound.
  public func integrityCheck() throws(StoreError) -> String {
    try locked { session throws(StoreError) in
      var lines: [String] = []
      try session.connection.run("PRAGMA integrity_check") { row in
        lines.append(row.text(0) ?? "")
      }
      return lines.joined(separator: "\n")
    }
  }

  /// Runs `body` in one transaction: a write transaction, taken at once (so a busy file waits
  /// here), or with `reading` a read transaction, a consistent view that takes no write lock.
  func transaction<T>(reading: Bool = false, _ body: (Session) throws(StoreError) -> T)
    throws(StoreError) -> T
  {
    try locked { session throws(StoreError) -> T in
      let statements = session.statements
      try (reading ? statements.beginRead : statements.begin).rows { _ in }
      do throws(StoreError) {
        let result = try body(session)
        try statements.commit.rows { _ in }
        return result
      } catch {
        try? statements.rollback.rows { _ in }
        throw error
      }
    }
  }

  func locked<T>(_ body: (Session) throws(StoreError) -> T) throws(StoreError) -> T {
    try session.withLock { session throws(StoreError) -> T in try body(session) }
  }
}

/// Who holds a lease: this machine, this process, and a random part (a process id is reused).
enum LeaseOwner {
  static func make() -> String {
    var name = [CChar](repeating: 0, count: 256)
    gethostname(&name, name.count - 1)
    let host = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    return "\(host):\(getpid()):\(random)"
  }
}
