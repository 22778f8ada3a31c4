import Foundation
import TestSupport
import Testing

@testable import Subscriptions

/// A store to test, made fresh for each test; a second store (a server database) adds its own
/// factory to `factories` and runs the same suite.
struct StoreFactory: Sendable, CustomStringConvertible {
  var description: String
  var make: @Sendable () throws -> any SubscriptionStore

  static let sqlite = StoreFactory(description: "SQLite") {
    try SQLiteSubscriptionStore(path: TemporaryState.path())
  }

  static let memory = StoreFactory(description: "memory") { MemorySubscriptionStore() }

  /// A fresh database on the test process's PostgreSQL cluster.
  static let postgres = StoreFactory(description: "PostgreSQL") {
    try PostgresSubscriptionStore(uri: try PostgresCluster.start().freshDatabase())
  }
}

/// A fresh path for a state file under the temporary directory.
enum TemporaryState {
  static func path() -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-state-\(UUID().uuidString).db").path
  }
}

/// What every `SubscriptionStore` promises, run against each one.
@Suite struct SubscriptionStoreSuite {
  static let factories: [StoreFactory] = [.sqlite, .memory, .postgres]

  static func item(_ key: Int64, pull: Int, seenAt: Int64) -> RememberedItem {
    RememberedItem(
      key: key, idKey: key, linkKey: key + 1000, contentKey: key + 2000, fingerprint: key,
      lastSeenAt: .seconds(seenAt), lastPull: pull)
  }

  static func outcome(
    _ state: SubscriptionState, items: [RememberedItem] = [], now: Int64 = 100
  ) -> PullOutcome {
    PullOutcome(
      state: state, seenItems: items, sawWholeFeed: true, hostHold: nil, now: .seconds(now))
  }

  @Test(arguments: factories) func newSourcesAreDueAndKnownOnesKeepTheirState(
    _ factory: StoreFactory
  ) throws {
    let store = try factory.make()
    try store.register(["a", "b"])
    #expect(try store.dueSources(at: .seconds(100), limit: 10).map(\.source) == ["a", "b"])
    var state = SubscriptionState(source: "a")
    state.nextCheckAt = .seconds(500)
    state.etag = "\"x\""
    state.lastModified = "Tue, 01 Dec 2026 10:00:00 GMT"
    state.bodyDigest = 0xfedc_ba98_7654_3210
    state.lastCheckAt = .seconds(90)
    state.lastUnconditionalAt = .seconds(80)
    state.nextCheckReason = .itemRate
    state.errorsInRow = 2
    state.redirectTarget = "https://example.com/new"
    state.redirectCount = 2
    state.movedTo = "https://example.com/moved"
    state.identityMode = .link
    state.pulls = 7
    state.newItemTimes = [.seconds(10), .seconds(20)]
    try store.record(Self.outcome(state))
    try store.register(["a", "b", "c"])
    #expect(try store.state(of: "a") == state, "every field of the state comes back")
    #expect(try store.state(of: "b") == SubscriptionState(source: "b"))
    #expect(try store.dueSources(at: .seconds(100), limit: 10).map(\.source) == ["b", "c"])
    #expect(
      try store.dueSources(at: .seconds(500), limit: 10).map(\.source).sorted() == ["a", "b", "c"])
    #expect(try store.dueSources(at: .seconds(500), limit: 2).count == 2)
    #expect(try store.state(of: "unknown") == nil)
  }

  /// An end that says which state it started from may be written as the columns it changed
  /// (a 304 moves only the schedule): what reads back is the whole new state all the same, and
  /// an end that changed more than the schedule is written whole.
  @Test(arguments: factories) func anEndGivenItsStartingStateReadsBackWhole(
    _ factory: StoreFactory
  ) throws {
    let store = try factory.make()
    var start = SubscriptionState(source: "a")
    start.etag = "\"x\""
    start.lastModified = "Tue, 01 Dec 2026 10:00:00 GMT"
    start.bodyDigest = 42
    start.identityMode = .link
    start.redirectTarget = "https://example.com/new"
    start.redirectCount = 1
    start.newItemTimes = [.seconds(10)]
    start.pulls = 3
    start.nextCheckAt = .seconds(200)
    try store.record(Self.outcome(start))
    // A 304: the schedule, the checks and the counters move.
    var checked = start
    checked.nextCheckAt = .seconds(900)
    checked.nextCheckReason = .cacheControl
    checked.lastCheckAt = .seconds(300)
    checked.lastUnconditionalAt = .seconds(300)
    checked.errorsInRow = 0
    checked.pulls = 4
    var outcome = Self.outcome(checked, now: 300)
    outcome.sawWholeFeed = false
    outcome.before = start
    try store.record(outcome)
    #expect(try store.state(of: "a") == checked)
    // A failure that also dropped the redirect count, then a 200 with new validators: whole.
    var failed = checked
    failed.errorsInRow = 1
    failed.gone = true
    failed.redirectTarget = nil
    failed.redirectCount = 0
    outcome = Self.outcome(failed, now: 400)
    outcome.before = checked
    try store.record(outcome)
    #expect(try store.state(of: "a") == failed)
    var changed = failed
    changed.etag = "\"y\""
    changed.newItemTimes = [.seconds(10), .seconds(500)]
    changed.errorsInRow = 0
    changed.gone = false
    outcome = Self.outcome(changed, now: 500)
    outcome.before = failed
    try store.record(outcome)
    #expect(try store.state(of: "a") == changed)
    // A source the store has never seen, given a starting state: its row is made.
    var fresh = SubscriptionState(source: "b")
    fresh.nextCheckAt = .seconds(700)
    outcome = Self.outcome(fresh)
    outcome.before = SubscriptionState(source: "b")
    try store.record(outcome)
    #expect(try store.state(of: "b") == fresh)
  }

  @Test(arguments: factories) func aGoneSourceAndItsReasonAreKept(_ factory: StoreFactory) throws {
    let store = try factory.make()
    var state = SubscriptionState(source: "g")
    state.gone = true
    state.nextCheckAt = .seconds(86_400)
    state.nextCheckReason = .default
    try store.record(Self.outcome(state))
    #expect(try store.state(of: "g") == state)
  }

  @Test(arguments: factories) func theLedgerKeepsItemsAndTombstonesThem(_ factory: StoreFactory)
    throws
  {
    let store = try factory.make()
    var state = SubscriptionState(source: "s")
    state.pulls = 1
    try store.record(
      PullOutcome(
        state: state,
        seenItems: [Self.item(1, pull: 1, seenAt: 10), Self.item(2, pull: 1, seenAt: 10)],
        sawWholeFeed: true, hostHold: nil, now: .seconds(10)))
    state.pulls = 2
    try store.record(
      PullOutcome(
        state: state, seenItems: [Self.item(2, pull: 2, seenAt: 20)], sawWholeFeed: true,
        hostHold: nil, now: .seconds(20)))
    let ledger = try store.ledger(of: "s").sorted { $0.key < $1.key }
    #expect(ledger.map(\.key) == [1, 2])
    #expect(ledger.map(\.gone) == [true, false])
    #expect(ledger[0].linkKey == 1001)
    #expect(try store.ledger(of: "other").isEmpty)
  }

  @Test(arguments: factories) func retentionKeepsTheLastPullsOrNinetyDaysWhicheverIsMore(
    _ factory: StoreFactory
  ) throws {
    let store = try factory.make()
    let day: Int64 = 86_400
    var state = SubscriptionState(source: "s")
    state.pulls = 1
    try store.record(
      PullOutcome(
        state: state, seenItems: [Self.item(1, pull: 1, seenAt: 0)], sawWholeFeed: true,
        hostHold: nil, now: .zero))
    // 60 pulls later but only 10 days: kept (within 90 days).
    state.pulls = 61
    try store.record(
      PullOutcome(
        state: state, seenItems: [], sawWholeFeed: true, hostHold: nil, now: .seconds(10 * day)))
    #expect(try store.ledger(of: "s").map(\.key) == [1])
    // 100 days and 60 pulls later: dropped.
    state.pulls = 62
    try store.record(
      PullOutcome(
        state: state, seenItems: [], sawWholeFeed: true, hostHold: nil, now: .seconds(100 * day)))
    #expect(try store.ledger(of: "s").isEmpty)
  }

  @Test(arguments: factories) func fewPullsOverManyDaysKeepTheItems(_ factory: StoreFactory) throws
  {
    let store = try factory.make()
    var state = SubscriptionState(source: "s")
    state.pulls = 1
    try store.record(
      PullOutcome(
        state: state, seenItems: [Self.item(1, pull: 1, seenAt: 0)], sawWholeFeed: true,
        hostHold: nil, now: .zero))
    state.pulls = 3
    try store.record(
      PullOutcome(
        state: state, seenItems: [], sawWholeFeed: true, hostHold: nil,
        now: .seconds(400 * 86_400)))
    #expect(try store.ledger(of: "s").map(\.key) == [1])
  }

  @Test(arguments: factories) func aHostHoldIsKeptAndOnlyLengthened(_ factory: StoreFactory) throws
  {
    let store = try factory.make()
    let state = SubscriptionState(source: "s")
    try store.record(
      PullOutcome(
        state: state, seenItems: [], sawWholeFeed: false, hostHold: ("h", .seconds(500)),
        now: .seconds(1)))
    try store.record(
      PullOutcome(
        state: state, seenItems: [], sawWholeFeed: false, hostHold: ("h", .seconds(300)),
        now: .seconds(2)))
    #expect(try store.hostHold("h") == .seconds(500))
    #expect(try store.hostHold("other") == nil)
  }

  @Test(arguments: factories) func listAndForget(_ factory: StoreFactory) throws {
    let store = try factory.make()
    try store.register(["b", "a"])
    try store.record(
      PullOutcome(
        state: SubscriptionState(source: "a"), seenItems: [Self.item(1, pull: 1, seenAt: 1)],
        sawWholeFeed: true, hostHold: nil, now: .seconds(1)))
    var listed: [String] = []
    try store.forEachState { listed.append($0.source) }
    #expect(listed == ["a", "b"])
    #expect(try store.forget("a"))
    #expect(try !store.forget("a"))
    #expect(try store.ledger(of: "a").isEmpty)
    #expect(try store.state(of: "a") == nil)
  }

  /// `state export`'s walk: each source once, in source order, with its own state and items
  /// (the SQLite store reads them in one pass; the others source by source), none of another's.
  @Test(arguments: factories) func everyStateWithItsLedgerInSourceOrder(_ factory: StoreFactory)
    throws
  {
    let store = try factory.make()
    try store.register(["d", "b", "a", "c"])
    var states: [String: SubscriptionState] = [:]
    var ledgers: [String: [RememberedItem]] = [:]
    for (index, source) in ["a", "c", "d"].enumerated() {
      var state = SubscriptionState(source: source)
      state.etag = "\"\(source)\""
      state.pulls = index + 1
      state.nextCheckAt = .seconds(Int64(100 * (index + 1)))
      let items = (0...index).map {
        Self.item(Int64(10 * index + $0), pull: index + 1, seenAt: Int64(index))
      }
      try store.record(Self.outcome(state, items: items))
      states[source] = state
      ledgers[source] = items
    }
    var walked: [(SubscriptionState, [RememberedItem])] = []
    try store.forEachStateWithLedger { walked.append(($0, $1)) }
    #expect(walked.map(\.0.source) == ["a", "b", "c", "d"])
    for (state, items) in walked {
      #expect(state == (try store.state(of: state.source)))
      #expect(state == states[state.source] ?? SubscriptionState(source: state.source))
      #expect(items.sorted { $0.key < $1.key } == (ledgers[state.source] ?? []))
    }
  }
}

/// What only the SQLite store promises: its file.
@Suite struct SQLiteStoreFileTests {
  @Test func theSchemaIsVersionedAndReopensWithoutChange() throws {
    let path = TemporaryState.path()
    do {
      let store = try SQLiteSubscriptionStore(path: path)
      try store.register(["a"])
    }
    let reopened = try SQLiteSubscriptionStore(path: path)
    #expect(try reopened.state(of: "a") != nil)
    #expect(try reopened.integrityCheck() == "ok")
  }

  @Test func aFileFromANewerFeedpullIsRefusedClearly() throws {
    let path = TemporaryState.path()
    _ = try SQLiteSubscriptionStore(path: path)
    let connection = try SQLiteConnection(path: path, busyMilliseconds: 1000)
    try connection.execute("PRAGMA user_version = 99")
    #expect {
      try SQLiteSubscriptionStore(path: path)
    } throws: { error in
      (error as? StoreError)?.message.contains("schema version 99") == true
    }
  }

  /// Their global mutex cost every allocation of SQLite's about 1% of an unchanged pass.
  @Test func sqliteKeepsNoMemoryStatistics() throws {
    let store = try SQLiteSubscriptionStore(path: TemporaryState.path())
    try store.register((0..<64).map { "http://127.0.0.1:1/feed\($0).xml" })
    #expect(try store.state(of: "http://127.0.0.1:1/feed9.xml") != nil)
    #expect(!SQLiteConnection.keepsMemoryStatistics)
  }

  @Test func aWriterHeldElsewhereMakesTheSecondFailClearlyAfterItsTimeout() throws {
    let path = TemporaryState.path()
    let store = try SQLiteSubscriptionStore(path: path, busyTimeout: 0.2)
    let other = try SQLiteConnection(path: path, busyMilliseconds: 1000)
    try other.execute("BEGIN IMMEDIATE")
    #expect {
      try store.register(["a"])
    } throws: { error in
      (error as? StoreError)?.isBusy == true
        && (error as? StoreError)?.message.contains("busy") == true
    }
    try other.execute("ROLLBACK")
    try store.register(["a"])
  }
}

/// The state is queried, not loaded whole: picking the due sources of a large state is fast.
/// A time limit means nothing under ThreadSanitizer (several times slower), so it is off there.
@Suite struct DuePickTests {
  /// The due query over a large state picks exactly the due sources, whole. How fast it is
  /// (< 100 ms for 1,000 of 100,000) is measured by bench/state.py in a release build: a timing
  /// inside the test suite measures the other tests running beside it.
  @Test func pickingAThousandDueOfAHundredThousand() throws {
    let path = TemporaryState.path()
    let store = try SQLiteSubscriptionStore(path: path)
    try store.register((0..<100_000).map { "https://host\($0 % 5000).example/\($0)" })
    // Every source checked once, next check in a week; a thousand of them due again now.
    let connection = try SQLiteConnection(path: path, busyMilliseconds: 5000)
    try connection.execute(
      """
      UPDATE sources SET next_check_at = 2000000000, etag = '"5f3a-61b2c9e8d1a40"',
        last_modified = 'Tue, 01 Dec 2026 10:00:00 GMT', body_digest = 1311768467463790320,
        last_check_at = 1796126400, last_unconditional_at = 1796126400,
        next_check_reason = 'item_rate', pulls = 40,
        new_item_times = '1796000000,1796003600,1796007200,1796010800'
      """)
    try connection.execute("UPDATE sources SET next_check_at = 0 WHERE id % 100 = 0")
    let due = try store.dueSources(at: .seconds(1_800_000_000), limit: Int.max)
    #expect(due.count == 1000)
    #expect(due.allSatisfy { $0.pulls == 40 && $0.source.hasPrefix("https://host") })
    #expect(due.allSatisfy { $0.newItemTimes.count == 4 && $0.nextCheckReason == .itemRate })
    #expect(Set(due.map(\.source)).count == 1000)
  }
}
