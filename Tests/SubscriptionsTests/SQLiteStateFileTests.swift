import Foundation
import Testing

@testable import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// The state file on disk: who may read it, where it is made, what a copy of it holds, how an
/// older file is read, and that a command that must not create a state does not.
@Suite struct SQLiteStateFileTests {
  static func mode(_ path: String) -> mode_t {
    var status = stat()
    return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
  }

  static func directory() -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-dir-\(UUID().uuidString)").path
  }

  @Test func aNewStateIsMode0600InDirectoriesMadeMode0700() throws {
    let top = Self.directory()
    defer { try? FileManager.default.removeItem(atPath: top) }
    let path = top + "/share/feedpull/state.db"
    let store = try SQLiteSubscriptionStore(path: path)
    try store.register(["a"])
    for directory in [top, top + "/share", top + "/share/feedpull"] {
      #expect(Self.mode(directory) == 0o700, "\(directory)")
    }
    for file in [path, path + "-wal", path + "-shm"] {
      #expect(FileManager.default.fileExists(atPath: file), "\(file)")
      #expect(Self.mode(file) == 0o600, "\(file)")
    }
  }

  @Test func anExistingFileKeepsItsMode() throws {
    let path = TemporaryState.path()
    _ = try SQLiteSubscriptionStore(path: path)
    chmod(path, 0o640)
    _ = try SQLiteSubscriptionStore(path: path)
    #expect(Self.mode(path) == 0o640)
  }

  @Test func noStateIsCreatedWhenNoneMayBe() throws {
    let top = Self.directory()
    let path = top + "/state.db"
    for readOnly in [false, true] {
      var options = SQLiteSubscriptionStore.Options()
      options.create = false
      options.readOnly = readOnly
      #expect {
        _ = try SQLiteSubscriptionStore(path: path, options: options)
      } throws: { error in
        (error as? StoreError)?.kind == .noState
      }
    }
    #expect(!FileManager.default.fileExists(atPath: top))
    // An empty file is no state either, and stays empty.
    let empty = TemporaryState.path()
    _ = FileManager.default.createFile(atPath: empty, contents: Data())
    var options = SQLiteSubscriptionStore.Options()
    options.create = false
    #expect {
      _ = try SQLiteSubscriptionStore(path: empty, options: options)
    } throws: { error in
      (error as? StoreError)?.kind == .noState
    }
    #expect((try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int) == 0)
  }

  @Test func aCheckpointedFileAloneHoldsTheWholeState() throws {
    let path = TemporaryState.path()
    let store = try SQLiteSubscriptionStore(path: path)
    for index in 0..<200 {
      var state = SubscriptionState(source: "https://example.com/\(index)")
      state.nextCheckAt = .seconds(1_796_130_000)
      try store.record(
        PullOutcome(
          state: state, seenItems: [], sawWholeFeed: true, hostHold: nil,
          now: .seconds(1_796_126_400)))
    }
    try store.checkpoint()
    let copy = TemporaryState.path()
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    var count = 0
    try SQLiteSubscriptionStore(path: copy).forEachState { state in
      #expect(state.nextCheckAt == .seconds(1_796_130_000))
      count += 1
    }
    #expect(count == 200)
  }

  /// The page size and the log's fold point of the store's connection.
  static func pages(_ store: SQLiteSubscriptionStore) throws -> (size: Int64, autocheckpoint: Int64)
  {
    try store.locked { session throws(StoreError) in
      var size: Int64 = 0
      var autocheckpoint: Int64 = 0
      try session.connection.run("PRAGMA page_size") { row in size = row.integer(0) }
      try session.connection.run("PRAGMA wal_autocheckpoint") { row in
        autocheckpoint = row.integer(0)
      }
      return (size, autocheckpoint)
    }
  }

  @Test func aNewFileHasSmallPagesAndAnOldOneKeepsItsOwn() throws {
    let path = TemporaryState.path()
    let store = try SQLiteSubscriptionStore(path: path)
    try store.register(["a"])
    let new = try Self.pages(store)
    #expect(new.size == SQLiteSubscriptionStore.newFilePageSize)
    #expect(new.autocheckpoint * new.size == SQLiteSubscriptionStore.autocheckpointBytes)
    // A file made before (SQLite's default 4 KB pages) keeps them, and its log still folds
    // every 40 MB.
    let old = try Self.versionOneFile()
    let oldStore = try SQLiteSubscriptionStore(path: old)
    #expect(try Self.pages(oldStore) == (4096, SQLiteSubscriptionStore.autocheckpointBytes / 4096))
    try oldStore.register(["c"])
    #expect(try oldStore.state(of: "a") == Self.versionOneState)
    #expect(try oldStore.integrityCheck() == "ok")
    // Reopened, each keeps its size.
    #expect(try Self.pages(SQLiteSubscriptionStore(path: path)).size == new.size)
    #expect(try Self.pages(SQLiteSubscriptionStore(path: old)).size == 4096)
  }

  /// A new file is made with the schema whole (`SQLiteSchema.current`), an old one is brought
  /// to it step by step: both must end with the same tables, columns (order, type, null,
  /// default, key), indexes and version, or a state made new and one upgraded would differ.
  @Test func aNewFilesSchemaIsTheOneTheStepsLeadTo() throws {
    func shape(_ path: String) throws -> [String] {
      let connection = try SQLiteConnection(path: path, busyMilliseconds: 1000)
      var tables: [String] = []
      try connection.run(
        "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
      ) { row in tables.append(row.text(0) ?? "") }
      var lines = ["version \(try SQLiteSchema.version(connection))"]
      for table in tables {
        try connection.run(
          "SELECT cid, name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('\(table)')"
        ) { row in
          lines.append(
            "\(table) column \(row.integer(0)) \(row.text(1) ?? "") \(row.text(2) ?? "") "
              + "\(row.integer(3)) \(row.text(4) ?? "-") \(row.integer(5))")
        }
        try connection.run(
          "SELECT name, \"unique\", origin FROM pragma_index_list('\(table)') ORDER BY name"
        ) { row throws(StoreError) in
          let index = row.text(0) ?? ""
          var columns: [String] = []
          try connection.run("SELECT name FROM pragma_index_info('\(index)') ORDER BY seqno") {
            columns.append($0.text(0) ?? "")
          }
          lines.append(
            "\(table) index \(index) \(row.integer(1)) \(row.text(2) ?? "") "
              + columns.joined(separator: ","))
        }
      }
      return lines
    }
    let made = TemporaryState.path()
    _ = try SQLiteSubscriptionStore(path: made)
    let stepped = TemporaryState.path()
    _ = FileManager.default.createFile(atPath: stepped, contents: Data())
    let connection = try SQLiteConnection(path: stepped, busyMilliseconds: 1000)
    try connection.execute(SQLiteSchema.migrations[0] + "PRAGMA user_version = 1;")
    _ = try SQLiteSubscriptionStore(path: stepped)
    let new = try shape(made)
    #expect(new.count > 30)
    #expect(new == (try shape(stepped)))
  }

  /// A file of schema version 1 (each state one JSON text).
  static func versionOneFile() throws -> String {
    let path = TemporaryState.path()
    _ = FileManager.default.createFile(atPath: path, contents: Data())
    let connection = try SQLiteConnection(path: path, busyMilliseconds: 1000)
    try connection.execute(SQLiteSchema.migrations[0])
    try connection.execute(
      """
      INSERT INTO sources(source, next_check_at, state) VALUES('a', 1796130000,
        '{"source":"a","etag":"\\"v1\\"","lastModified":"Tue, 01 Dec 2026 10:00:00 GMT",
          "bodyDigest":1311768467463790320,"lastCheckAt":1796126400,
          "lastUnconditionalAt":1796126400,"nextCheckAt":1796130000,"nextCheckReason":"item_rate",
          "errorsInRow":0,"gone":false,"redirectTarget":"https://example.com/b",
          "redirectCount":1,"identityMode":"hash","pulls":12,
          "newItemTimes":[1796000000,1796003600]}');
      INSERT INTO sources(source, next_check_at, state) VALUES('b', 0, NULL);
      PRAGMA user_version = 1;
      """)
    return path
  }

  static let versionOneState: SubscriptionState = {
    var state = SubscriptionState(source: "a")
    state.etag = "\"v1\""
    state.lastModified = "Tue, 01 Dec 2026 10:00:00 GMT"
    state.bodyDigest = 1_311_768_467_463_790_320
    state.lastCheckAt = .seconds(1_796_126_400)
    state.lastUnconditionalAt = .seconds(1_796_126_400)
    state.nextCheckAt = .seconds(1_796_130_000)
    state.nextCheckReason = .itemRate
    state.redirectTarget = "https://example.com/b"
    state.redirectCount = 1
    state.identityMode = .hash
    state.pulls = 12
    state.newItemTimes = [.seconds(1_796_000_000), .seconds(1_796_003_600)]
    return state
  }()

  @Test func aFileOfVersionOneIsMigratedToColumns() throws {
    let path = try Self.versionOneFile()
    let store = try SQLiteSubscriptionStore(path: path)
    #expect(try store.state(of: "a") == Self.versionOneState)
    #expect(try store.state(of: "b") == SubscriptionState(source: "b"))
    #expect(try store.integrityCheck() == "ok")
    let connection = try SQLiteConnection(path: path, busyMilliseconds: 1000)
    #expect(try SQLiteSchema.version(connection) == SQLiteSchema.currentVersion)
  }

  /// A file of schema version 2 kept its leases on the sources' rows; version 3 moves them to a
  /// table of their own. A live lease of another process must still hold after the upgrade
  /// (a cron run upgrading the file while an older watch pulls from it), a lapsed one not.
  @Test func aFileOfVersionTwoKeepsItsLeasesInTheirOwnTable() throws {
    let path = TemporaryState.path()
    _ = FileManager.default.createFile(atPath: path, contents: Data())
    let connection = try SQLiteConnection(path: path, busyMilliseconds: 1000)
    try connection.execute(SQLiteSchema.migrations[0])
    try connection.execute(SQLiteSchema.migrations[1])
    let clock = SQLiteSubscriptionStore.leaseClock()
    try connection.execute(
      """
      INSERT INTO sources(source, next_check_at, lease_until, lease_owner)
        VALUES('held', 0, \(clock + 600_000), 'elsewhere:1:1'),
              ('lapsed', 0, \(clock - 1_000), 'elsewhere:1:1'),
              ('free', 0, NULL, NULL);
      PRAGMA user_version = 2;
      """)
    let store = try SQLiteSubscriptionStore(path: path)
    #expect(try SQLiteSchema.version(connection) == SQLiteSchema.currentVersion)
    let now = Duration.seconds(1_796_126_400)
    let answers = try store.claim(
      ["held", "lapsed", "free"], at: now, dueOnly: false, grantLimit: 3)
    #expect(answers.count == 3)
    guard answers.count == 3 else { return }
    if case .leased(let until) = answers[0] {
      #expect(until > now + .seconds(590) && until <= now + .seconds(600))
    } else {
      Issue.record("the live lease did not survive the upgrade: \(answers[0])")
    }
    #expect(answers[1] == .granted(SubscriptionState(source: "lapsed")))
    #expect(answers[2] == .granted(SubscriptionState(source: "free")))
    #expect(try store.integrityCheck() == "ok")
  }

  @Test func readingOnlyReadsAnOlderFileThroughACopyAndLeavesItAsItWas() throws {
    let path = try Self.versionOneFile()
    var options = SQLiteSubscriptionStore.Options()
    options.readOnly = true
    options.create = false
    let store = try SQLiteSubscriptionStore(path: path, options: options)
    var states: [SubscriptionState] = []
    try store.forEachState { states.append($0) }
    #expect(states.map(\.source) == ["a", "b"])
    #expect(states.first == Self.versionOneState)
    let connection = try SQLiteConnection(path: path, readOnly: true, busyMilliseconds: 1000)
    #expect(try SQLiteSchema.version(connection) == 1)
    #expect { try store.register(["c"]) } throws: { _ in true }
  }
}
