import TestSupport
import Testing

@testable import Subscriptions

/// A source a SQLite store inserted in a claim remembers no items until its first end: its
/// ledger is answered without a query and its end written by row id. What it records must read
/// back as from any other source, and a row forgotten meanwhile must not be overwritten.
@Suite struct FreshSourcesTests {
  static let now: Duration = .seconds(1_796_126_400)

  static func item(_ key: Int64, pull: Int) -> RememberedItem {
    RememberedItem(
      key: key, idKey: key, linkKey: nil, contentKey: key &* 3, fingerprint: key &* 5,
      lastSeenAt: now, lastPull: pull)
  }

  static func pulled(_ source: String, pulls: Int, items: [RememberedItem]) -> PullOutcome {
    var state = SubscriptionState(source: source)
    state.pulls = pulls
    state.lastCheckAt = now
    state.nextCheckAt = now + .seconds(3600)
    state.etag = "\"e\(pulls)\""
    return PullOutcome(state: state, seenItems: items, sawWholeFeed: true, hostHold: nil, now: now)
  }

  @Test func aClaimedNewSourceRecordsItsItemsAndReadsThemBack() throws {
    let store = try SQLiteSubscriptionStore(path: TemporaryState.path())
    let answers = try store.claim(["https://a/feed"], at: Self.now, dueOnly: false, grantLimit: 1)
    #expect(answers.count == 1)
    #expect(store.fresh.contains("https://a/feed"))
    #expect(try store.ledger(of: "https://a/feed").isEmpty)
    try store.record(Self.pulled("https://a/feed", pulls: 1, items: [Self.item(1, pull: 1)]))
    #expect(!store.fresh.contains("https://a/feed"))
    #expect(try store.ledger(of: "https://a/feed") == [Self.item(1, pull: 1)])
    let state = try #require(try store.state(of: "https://a/feed"))
    #expect(state == Self.pulled("https://a/feed", pulls: 1, items: []).state)
    // The lease was given back with the end.
    let again = try store.claim(["https://a/feed"], at: Self.now, dueOnly: false, grantLimit: 1)
    guard case .granted(let claimed) = again.first else {
      Issue.record("not granted again: \(again)")
      return
    }
    #expect(claimed == state)
    // A second pull without the item tombstones it, as for any source.
    try store.record(Self.pulled("https://a/feed", pulls: 2, items: [Self.item(2, pull: 2)]))
    let ledger = try store.ledger(of: "https://a/feed").sorted { $0.key < $1.key }
    #expect(ledger.map(\.key) == [1, 2])
    #expect(ledger.map(\.gone) == [true, false])
  }

  @Test func aFreshRowForgottenAndItsIdReusedIsNotOverwritten() throws {
    let path = TemporaryState.path()
    let store = try SQLiteSubscriptionStore(path: path)
    let other = try SQLiteSubscriptionStore(path: path)
    _ = try store.claim(["https://a/feed"], at: Self.now, dueOnly: false, grantLimit: 1)
    // Another process forgets it and inserts another source, which may take the same row id.
    #expect(try other.forget("https://a/feed"))
    _ = try other.claim(["https://b/feed"], at: Self.now, dueOnly: false, grantLimit: 1)
    try store.record(Self.pulled("https://a/feed", pulls: 1, items: [Self.item(1, pull: 1)]))
    let b = try #require(try other.state(of: "https://b/feed"))
    #expect(b.pulls == 0 && b.etag == nil)
    #expect(try other.ledger(of: "https://b/feed").isEmpty)
    // The end of the forgotten source is recorded as any unknown source's: a row of its own.
    #expect(try store.state(of: "https://a/feed")?.pulls == 1)
    #expect(try store.ledger(of: "https://a/feed") == [Self.item(1, pull: 1)])
  }
}
