import Testing

@testable import Subscriptions

/// A claimed state carries the SQLite row it was read from (`StoreRowHint`), and a 304's end is
/// written to that row; a hint that names another source's row (a state claimed from another
/// file) is not trusted, and states compare as if no hint were there.
@Suite struct StoreRowHintTests {
  /// The 304's end of `state`, as a gate makes it: only the schedule moved.
  static func notModified(_ state: SubscriptionState, now: Int64 = 100) -> PullOutcome {
    var after = state
    after.nextCheckAt = .seconds(now + 3600)
    after.nextCheckReason = .default
    after.lastCheckAt = .seconds(now)
    after.pulls += 1
    var outcome = PullOutcome(
      state: after, seenItems: [], sawWholeFeed: false, hostHold: nil, now: .seconds(now))
    outcome.before = state
    return outcome
  }

  @Test func aClaimedStateCarriesItsRowAndItsEndIsWrittenThereAndReleased() throws {
    let store = try SQLiteSubscriptionStore(path: TemporaryState.path())
    try store.register(["a", "b", "c"])
    let claimed = try store.claimDue(at: .seconds(100), limit: 3)
    #expect(claimed.map(\.storeRow.id) == [1, 2, 3])
    let named = try store.claim(["c"], at: .seconds(100), dueOnly: false, grantLimit: 1)
    // Held by this store already: granted again, with its row.
    guard case .granted(let c) = named.first else {
      Issue.record("c not granted: \(named)")
      return
    }
    #expect(c.storeRow.id == 3)
    try store.record(claimed.map { Self.notModified($0) })
    for source in ["a", "b", "c"] {
      let state = try #require(try store.state(of: source))
      #expect(state.nextCheckAt == .seconds(3700), "\(source)")
      #expect(state.pulls == 1, "\(source)")
    }
    // Given back: another store on the file claims them once due.
    let other = try SQLiteSubscriptionStore(path: store.path)
    #expect(try other.claimDue(at: .seconds(3700), limit: 3).count == 3)
  }

  @Test func aRowOfAnotherSourceIsNotWrittenTheEndGoesByName() throws {
    let first = try SQLiteSubscriptionStore(path: TemporaryState.path())
    try first.register(["x", "y"])
    let second = try SQLiteSubscriptionStore(path: TemporaryState.path())
    try second.register(["y", "x"])
    // x is row 1 in the first file, row 2 in the second (where row 1 is y).
    let x = try #require(try first.claimDue(at: .seconds(100), limit: 1).first)
    #expect(x.source == "x" && x.storeRow.id == 1)
    try second.record([Self.notModified(x)])
    #expect(try second.state(of: "x")?.nextCheckAt == .seconds(3700))
    #expect(try second.state(of: "y")?.nextCheckAt == .zero)
    #expect(try second.state(of: "y")?.pulls == 0)
  }

  @Test func aRowGoneMeanwhileIsWrittenAgainByName() throws {
    let store = try SQLiteSubscriptionStore(path: TemporaryState.path())
    try store.register(["a"])
    let a = try #require(try store.claimDue(at: .seconds(100), limit: 1).first)
    #expect(try store.forget("a"))
    try store.record([Self.notModified(a)])
    let written = try #require(try store.state(of: "a"))
    #expect(written.nextCheckAt == .seconds(3700))
  }

  @Test func statesCompareWithoutTheirHints() {
    var read = SubscriptionState(source: "a")
    read.storeRow.id = 7
    #expect(read == SubscriptionState(source: "a"))
  }
}
