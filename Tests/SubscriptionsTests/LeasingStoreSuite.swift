import Dispatch
import FeedPullSupport
import Foundation
import TestSupport
import Testing

@testable import Subscriptions

/// One shared state opened by several stores, as several processes open it: a SQLite file, or a
/// PostgreSQL database. `open(lease)` gives another store on the same state.
struct SharedStateFactory: Sendable, CustomStringConvertible {
  var description: String
  var makeLocation: @Sendable () throws -> String
  var open: @Sendable (_ location: String, _ lease: Duration) throws -> any LeasingSubscriptionStore
  /// When `source`'s lease ends, in seconds since 1970 on the store's clock, read from its row.
  var leaseEnd: @Sendable (_ location: String, _ source: String) throws -> Double

  static let sqlite = SharedStateFactory(
    description: "SQLite", makeLocation: { TemporaryState.path() },
    open: { path, lease in
      var options = SQLiteSubscriptionStore.Options()
      options.lease = lease
      return try SQLiteSubscriptionStore(path: path, options: options)
    },
    leaseEnd: { path, source in
      let connection = try SQLiteConnection(path: path, readOnly: true, busyMilliseconds: 1000)
      var end = 0.0
      try connection.run(
        """
        SELECT max(lease_until) FROM claims, json_each(claims.sources) AS j
        WHERE j.value = (SELECT id FROM sources WHERE source = ?)
        """, [.text(source)]
      ) {
        row in end = Double(row.integer(0)) / 1000
      }
      return end
    })

  static let postgres = SharedStateFactory(
    description: "PostgreSQL", makeLocation: { try PostgresCluster.start().freshDatabase() },
    open: { uri, lease in try PostgresSubscriptionStore(uri: uri, lease: lease) },
    leaseEnd: { uri, source in
      let database = String(uri.dropFirst("postgresql:///".count).prefix { $0 != "?" })
      return Double(
        try PostgresCluster.start().query(
          "SELECT extract(epoch FROM lease_until) FROM sources WHERE source = '\(source)'",
          database: database)) ?? 0
    })

  /// Two stores on one fresh state, as two processes.
  func pair(lease: Duration = .seconds(300), otherLease: Duration = .seconds(300)) throws -> (
    any LeasingSubscriptionStore, any LeasingSubscriptionStore
  ) {
    let location = try makeLocation()
    return (try open(location, lease), try open(location, otherLease))
  }
}

/// What the leasing capability promises, run against both stores that have it, SQLite and
/// PostgreSQL alike: two processes never hold one source, a lease holds until it is recorded,
/// released or expires, claims of named sources answer each in order.
@Suite struct LeasingStoreSuite {
  static let factories: [SharedStateFactory] = [.sqlite, .postgres]
  static let now: Duration = .seconds(1_796_126_400)

  static func recorded(_ source: String, next: Duration) -> PullOutcome {
    var state = SubscriptionState(source: source)
    state.nextCheckAt = next
    state.nextCheckReason = .ttl
    state.lastCheckAt = now
    return PullOutcome(state: state, seenItems: [], sawWholeFeed: true, hostHold: nil, now: now)
  }

  @Test(arguments: factories) func twoStoresClaimingAtOnceNeverGetTheSameSource(
    _ factory: SharedStateFactory
  ) throws {
    let (first, second) = try factory.pair()
    let sources = (0..<500).map { "http://example.com/\($0)" }
    try first.register(sources)
    let claims = TSanVisibleMutex<[[String]]>([[], []])
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      let store = worker == 0 ? first : second
      while let batch = try? store.claimDue(at: Self.now, limit: 7), !batch.isEmpty {
        claims.withLock { $0[worker] += batch.map(\.source) }
      }
    }
    let both = claims.withLock { $0 }
    #expect(Set(both[0]).isDisjoint(with: both[1]))
    #expect((both[0] + both[1]).sorted() == sources.sorted())
  }

  @Test(arguments: factories) func namedClaimsAnswerEachSourceInOrderUpToTheGrantLimit(
    _ factory: SharedStateFactory
  ) throws {
    let (store, other) = try factory.pair()
    try store.record(Self.recorded("later", next: Self.now + .seconds(3600)))
    _ = try other.claim(["held"], at: Self.now, dueOnly: false, grantLimit: 1)
    let answers = try store.claim(
      ["new", "later", "held", "second", "third"], at: Self.now, dueOnly: true, grantLimit: 2)
    #expect(answers.count == 4, "the prefix up to the second grant")
    #expect(answers[0] == .granted(SubscriptionState(source: "new")))
    #expect(answers[1] == .notDue(at: Self.now + .seconds(3600), reason: .ttl))
    guard case .leased(let until) = answers[2] else {
      Issue.record("held: \(answers[2])")
      return
    }
    #expect(until > Self.now + .seconds(290) && until <= Self.now + .seconds(301))
    #expect(answers[3] == .granted(SubscriptionState(source: "second")))
    // "third" was not looked at: not leased (another process claims it).
    #expect(
      try other.claim(["third"], at: Self.now, dueOnly: true, grantLimit: 1)
        == [.granted(SubscriptionState(source: "third"))])
    // Without dueOnly, a source not due is granted (a pass over named sources pulls them all).
    let all = try store.claim(["later"], at: Self.now, dueOnly: false, grantLimit: 5)
    guard case .granted(let later) = all.first else {
      Issue.record("later: \(all)")
      return
    }
    #expect(later.nextCheckAt == Self.now + .seconds(3600))
    #expect(later.nextCheckReason == .ttl)
  }

  @Test(arguments: factories) func aLongListMostlyNotDueIsAnsweredInOrderUpToTheGrantLimit(
    _ factory: SharedStateFactory
  ) throws {
    let (store, _) = try factory.pair()
    // Names a JSON array must escape, too.
    let names = (0..<400).map { "https://example.com/\"quoted\"\\\($0)" }
    for name in names.prefix(300) {
      try store.record(Self.recorded(name, next: Self.now + .seconds(600)))
    }
    let answers = try store.claim(names, at: Self.now, dueOnly: true, grantLimit: 40)
    #expect(answers.count == 340, "300 not due, then 40 granted")
    let notDue = ClaimAnswer.notDue(at: Self.now + .seconds(600), reason: .ttl)
    #expect(answers.prefix(300).allSatisfy { $0 == notDue })
    #expect(
      Array(answers.dropFirst(300))
        == names[300..<340].map { .granted(SubscriptionState(source: $0)) })
  }

  @Test(arguments: factories) func aLeaseHoldsUntilRecordedReleasedOrExpired(
    _ factory: SharedStateFactory
  ) throws {
    let location = try factory.makeLocation()
    let holder = try factory.open(location, .seconds(300))
    let other = try factory.open(location, .seconds(300))
    try holder.register(["a", "b"])
    #expect(try holder.claimDue(at: Self.now, limit: 10).map(\.source) == ["a", "b"])
    #expect(try other.claimDue(at: Self.now, limit: 10).isEmpty)
    // Recorded (due again at once): the lease is given back.
    try holder.record(Self.recorded("a", next: Self.now))
    #expect(try other.claimDue(at: Self.now, limit: 10).map(\.source) == ["a"])
    try holder.releaseLeases(of: ["b"])
    #expect(try other.claim(["b"], at: Self.now, dueOnly: true, grantLimit: 1).count == 1)
    #expect(
      try holder.claim(["b"], at: Self.now, dueOnly: true, grantLimit: 1).first.map {
        if case .leased = $0 { true } else { false }
      } == true)
    // A process that died: its zero-length lease has already run out.
    let dead = try factory.open(location, .zero)
    try dead.register(["c"])
    #expect(try dead.claimDue(at: Self.now, limit: 10).map(\.source) == ["c"])
    #expect(try other.claimDue(at: Self.now, limit: 10).map(\.source) == ["c"])
  }

  /// A 304's record (an end given the state it was claimed with, only its schedule moved)
  /// gives the lease back as a whole record does; a batch of claims leases every granted row.
  @Test(arguments: factories) func aRecordOfTheScheduleAloneGivesTheLeaseBack(
    _ factory: SharedStateFactory
  ) throws {
    let (holder, other) = try factory.pair()
    let names = (0..<40).map { "s\($0)" }
    try holder.register(names)
    let states = try holder.claim(names, at: Self.now, dueOnly: true, grantLimit: 40).compactMap {
      if case .granted(let state) = $0 { state } else { nil }
    }
    #expect(states.map(\.source) == names)
    #expect(
      try other.claim(names, at: Self.now, dueOnly: false, grantLimit: 40).allSatisfy {
        if case .leased = $0 { true } else { false }
      })
    let outcomes = states.prefix(30).map { before in
      var outcome = Self.recorded(before.source, next: Self.now)
      outcome.sawWholeFeed = false
      outcome.before = before
      return outcome
    }
    try holder.record(Array(outcomes))
    #expect(
      try other.claimDue(at: Self.now, limit: 100).map(\.source).sorted()
        == Array(
          names.prefix(30)
        ).sorted())
    #expect(try other.state(of: "s0")?.nextCheckReason == .ttl)
    #expect(try other.state(of: "s0")?.lastCheckAt == Self.now)
  }

  @Test(arguments: factories) func renewingMovesTheEndOfTheLeasesHeldByName(
    _ factory: SharedStateFactory
  ) throws {
    let location = try factory.makeLocation()
    let holder = try factory.open(location, .seconds(120))
    let other = try factory.open(location, .seconds(120))
    _ = try holder.claim(["a", "b"], at: Self.now, dueOnly: true, grantLimit: 2)
    _ = try other.claim(["c"], at: Self.now, dueOnly: true, grantLimit: 1)
    let before = try ["a", "b", "c"].map { try factory.leaseEnd(location, $0) }
    try holder.renewLeases(of: ["a", "c"])
    let after = try ["a", "b", "c"].map { try factory.leaseEnd(location, $0) }
    #expect(after[0] >= before[0], "a renewed")
    #expect(after[1] == before[1], "b, held but not named, unchanged")
    #expect(after[2] == before[2], "c, another's, unchanged")
    let clock = Date().timeIntervalSince1970
    #expect(after[0] > clock + 110 && after[0] <= clock + 121)
    #expect(
      try other.claim(["a"], at: Self.now, dueOnly: true, grantLimit: 1).first.map {
        if case .leased = $0 { true } else { false }
      } == true)
  }

  @Test(arguments: factories) func postponingMovesTheNextCheckAndGivesTheLeaseBack(
    _ factory: SharedStateFactory
  ) throws {
    let (holder, other) = try factory.pair()
    _ = try holder.claim(["a"], at: Self.now, dueOnly: true, grantLimit: 1)
    try holder.postpone("a", until: Self.now + .seconds(600), reason: .retryAfter)
    #expect(
      try other.claim(["a"], at: Self.now, dueOnly: true, grantLimit: 1)
        == [.notDue(at: Self.now + .seconds(600), reason: .retryAfter)])
    #expect(try other.claimDue(at: Self.now + .seconds(600), limit: 5).map(\.source) == ["a"])
  }

  @Test(arguments: factories) func theNextClaimableMomentCountsDueTimesAndLeases(
    _ factory: SharedStateFactory
  ) throws {
    let (holder, other) = try factory.pair(lease: .seconds(1000))
    #expect(try other.nextClaimable(after: Self.now) == nil)
    try holder.record(Self.recorded("a", next: Self.now + .seconds(5000)))
    #expect(try other.nextClaimable(after: Self.now) == Self.now + .seconds(5000))
    try holder.register(["b"])
    #expect(try other.nextClaimable(after: Self.now) == .zero)
    // Claimed: "b" is the holder's for the lease, measured on the store's clock.
    _ = try holder.claimDue(at: Self.now, limit: 1)
    let leaseEnd = try #require(try other.nextClaimable(after: Self.now))
    #expect(leaseEnd >= Self.now + .seconds(990) && leaseEnd <= Self.now + .seconds(1001))
  }
}

/// The same promises, within one process, of a store that has no leases of its own.
@Suite struct LocalLeasesTests {
  @Test func aRunNeverHandsOutOneSourceTwice() throws {
    let store = LocalLeases(MemorySubscriptionStore())
    let now = LeasingStoreSuite.now
    try store.register(["a", "b"])
    #expect(try store.claimDue(at: now, limit: 1).map(\.source) == ["a"])
    #expect(try store.claimDue(at: now, limit: 5).map(\.source) == ["b"])
    #expect(try store.claimDue(at: now, limit: 5).isEmpty)
    try store.record(LeasingStoreSuite.recorded("a", next: now))
    #expect(try store.claimDue(at: now, limit: 5).map(\.source) == ["a"])
    try store.postpone("a", until: now + .seconds(60), reason: .retryAfter)
    #expect(
      try store.claim(["a"], at: now, dueOnly: true, grantLimit: 1)
        == [.notDue(at: now + .seconds(60), reason: .retryAfter)])
    #expect(try store.nextClaimable(after: now) == now + .seconds(60))
  }
}
