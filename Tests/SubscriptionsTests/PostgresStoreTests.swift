import Dispatch
import Foundation
import TestSupport
import Testing

@testable import Subscriptions

/// What only a shared store does: leases that keep two workers off one source, leases that
/// expire, a schema version shared by every worker, and a database that goes away and comes
/// back. Against a real PostgreSQL server (`PostgresCluster`).
@Suite struct PostgresStoreTests {
  @Test func twoWorkersClaimingAtOnceNeverGetTheSameSource() throws {
    let uri = try PostgresCluster.start().freshDatabase()
    let first = try PostgresSubscriptionStore(uri: uri)
    let second = try PostgresSubscriptionStore(uri: uri)
    let sources = (0..<500).map { "http://example.com/\($0)" }
    try first.register(sources)
    let claims = TSanVisibleClaims()
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      let store = worker == 0 ? first : second
      while let batch = try? store.claimDue(now: 10, limit: 7), !batch.isEmpty {
        claims.add(worker, batch.map(\.source))
      }
    }
    let (zero, one) = claims.both
    #expect(Set(zero).isDisjoint(with: one))
    #expect((zero + one).sorted() == sources.sorted())
    #expect(zero.count + one.count == sources.count)
  }

  @Test func aLeaseKeepsOthersOffUntilItExpiresOrTheSourceIsRecorded() throws {
    let uri = try PostgresCluster.start().freshDatabase()
    let holder = try PostgresSubscriptionStore(uri: uri, lease: 300)
    let other = try PostgresSubscriptionStore(uri: uri)
    try holder.register(["a", "b"])
    #expect(try holder.claimDue(now: 10, limit: 10).map(\.source) == ["a", "b"])
    #expect(try other.claimDue(now: 10, limit: 10).isEmpty)
    var state = SubscriptionState(source: "a")
    state.nextCheckAt = 5
    try holder.record(
      PullOutcome(state: state, seenItems: [], sawWholeFeed: true, hostHold: nil, now: 10))
    // Recorded: the lease is given back, and "a" is due again for anyone.
    #expect(try other.claimDue(now: 10, limit: 10).map(\.source) == ["a"])
    try holder.releaseLeases(of: ["b"])
    #expect(try other.claimDue(now: 10, limit: 10).map(\.source) == ["b"])

    // A worker that died: its zero-second lease has already run out.
    let dead = try PostgresSubscriptionStore(uri: uri, lease: 0)
    try dead.register(["c"])
    #expect(try dead.claimDue(now: 10, limit: 10).map(\.source) == ["c"])
    #expect(try other.claimDue(now: 10, limit: 10).map(\.source) == ["c"])
  }

  @Test func theSchemaIsVersionedAndANewerOneIsRefused() throws {
    let cluster = try PostgresCluster.start()
    let uri = try cluster.freshDatabase()
    _ = try PostgresSubscriptionStore(uri: uri)
    _ = try PostgresSubscriptionStore(uri: uri)
    let database = String(uri.dropFirst("postgresql:///".count).prefix { $0 != "?" })
    #expect(
      try cluster.query("SELECT version FROM schema_version", database: database)
        == "\(PostgresSchema.currentVersion)")
    #expect(PostgresSchema.currentVersion == 2)
    _ = try cluster.query("UPDATE schema_version SET version = 99", database: database)
    #expect {
      _ = try PostgresSubscriptionStore(uri: uri)
    } throws: { error in
      "\(error)".contains("schema version 99")
    }
  }

  @Test func theEarliestNextCheckCountsLeases() throws {
    let uri = try PostgresCluster.start().freshDatabase()
    let store = try PostgresSubscriptionStore(uri: uri, lease: 1000)
    #expect(try store.earliestNextCheck() == nil)
    var state = SubscriptionState(source: "a")
    state.nextCheckAt = 5_000_000_000
    try store.record(
      PullOutcome(state: state, seenItems: [], sawWholeFeed: true, hostHold: nil, now: 1))
    #expect(try store.earliestNextCheck() == 5_000_000_000)
    try store.register(["b"])
    #expect(try store.earliestNextCheck() == 0)
    // Claimed: "b" is this worker's for the lease, on the database's clock.
    _ = try store.claimDue(now: 10, limit: 1)
    let leaseEnd = try #require(try store.earliestNextCheck())
    let now = Int64(Date().timeIntervalSince1970)
    #expect(leaseEnd >= now + 990 && leaseEnd <= now + 1010)
  }

  @Test func hostStartsAreSpacedAcrossWorkers() throws {
    let uri = try PostgresCluster.start().freshDatabase()
    let first = try PostgresSubscriptionStore(uri: uri)
    let second = try PostgresSubscriptionStore(uri: uri)
    let waits = [
      try first.reserveStart(host: "example.com", spacing: 10),
      try second.reserveStart(host: "example.com", spacing: 10),
      try first.reserveStart(host: "example.com", spacing: 10),
      try second.reserveStart(host: "other.org", spacing: 10),
    ]
    #expect(waits[0] == 0)
    #expect(waits[1] > 9 && waits[1] <= 10)
    #expect(waits[2] > 19 && waits[2] <= 20)
    #expect(waits[3] == 0)
    // The shared delay is not a Retry-After hold.
    #expect((try first.hostHold("example.com") ?? 0) <= 0)
  }

  @Test func aPasswordNeverReachesAMessage() {
    #expect(
      PostgresConnection.redacted("postgresql://feeds:s3cret@db.example/feeds")
        == "postgresql://feeds@db.example/feeds")
    #expect(
      PostgresConnection.redacted("postgresql:///feeds?host=/tmp")
        == "postgresql:///feeds?host=/tmp")
  }

  @Test func anUnreachableDatabaseFailsClearly() {
    #expect {
      _ = try PostgresSubscriptionStore(uri: "postgresql:///none?host=/nonexistent-feedpull")
    } throws: { error in
      "\(error)".contains("cannot connect to PostgreSQL state")
    }
  }

  @Test func theStoreFindsARestartedDatabaseAgain() throws {
    let cluster = try PostgresCluster.startPrivate()
    let store = try PostgresSubscriptionStore(uri: try cluster.freshDatabase())
    try store.register(["a"])
    try cluster.stopServer()
    #expect {
      _ = try store.state(of: "a")
    } throws: { error in
      "\(error)".contains("connection")
    }
    try cluster.startServer()
    #expect(try store.state(of: "a") == SubscriptionState(source: "a"))
    #expect(try store.claimDue(now: 1, limit: 5).map(\.source) == ["a"])
    // Restarted between two calls: the next call finds the dropped connection, reconnects
    // and runs, with no error for the caller.
    try cluster.stopServer()
    try cluster.startServer()
    var state = SubscriptionState(source: "a")
    state.nextCheckAt = 100
    try store.record(
      PullOutcome(state: state, seenItems: [], sawWholeFeed: true, hostHold: nil, now: 1))
    #expect(try store.state(of: "a") == state)
  }
}

/// What each of two claiming threads got.
private final class TSanVisibleClaims: @unchecked Sendable {
  private let lock = NSLock()
  private var claims: [[String]] = [[], []]

  func add(_ worker: Int, _ sources: [String]) {
    lock.withLock { claims[worker] += sources }
  }

  var both: ([String], [String]) { lock.withLock { (claims[0], claims[1]) } }
}
