import Dispatch
import Foundation
import TestSupport
import Testing

@testable import Subscriptions

/// What only the PostgreSQL store does (its leases are in `LeasingStoreSuite`, with SQLite's): a
/// schema version shared by every worker and migrated from the JSON state of version 2, host
/// starts spaced across workers, a database that goes away and comes back. Against a real
/// PostgreSQL server (`PostgresCluster`).
@Suite struct PostgresStoreTests {
  @Test func theSchemaIsVersionedAndANewerOneIsRefused() throws {
    let cluster = try PostgresCluster.start()
    let uri = try cluster.freshDatabase()
    _ = try PostgresSubscriptionStore(uri: uri)
    _ = try PostgresSubscriptionStore(uri: uri)
    let database = String(uri.dropFirst("postgresql:///".count).prefix { $0 != "?" })
    #expect(
      try cluster.query("SELECT version FROM schema_version", database: database)
        == "\(PostgresSchema.currentVersion)")
    #expect(PostgresSchema.currentVersion == 3)
    _ = try cluster.query("UPDATE schema_version SET version = 99", database: database)
    #expect {
      _ = try PostgresSubscriptionStore(uri: uri)
    } throws: { error in
      "\(error)".contains("schema version 99")
    }
  }

  @Test func hostStartsAreSpacedAcrossWorkers() throws {
    let uri = try PostgresCluster.start().freshDatabase()
    let first = try PostgresSubscriptionStore(uri: uri)
    let second = try PostgresSubscriptionStore(uri: uri)
    let spacing = Duration.seconds(10)
    let waits = [
      try first.reserveStart(host: "example.com", spacing: spacing),
      try second.reserveStart(host: "example.com", spacing: spacing),
      try first.reserveStart(host: "example.com", spacing: spacing),
      try second.reserveStart(host: "other.org", spacing: spacing),
    ]
    #expect(waits[0] == .zero)
    #expect(waits[1] > .seconds(9) && waits[1] <= .seconds(10))
    #expect(waits[2] > .seconds(19) && waits[2] <= .seconds(20))
    #expect(waits[3] == .zero)
    // The shared delay is not a Retry-After hold.
    #expect((try first.hostHold("example.com") ?? .zero) <= .zero)
  }

  @Test func aStateOfVersionTwoIsMigratedToColumns() throws {
    let cluster = try PostgresCluster.start()
    let uri = try cluster.freshDatabase()
    let database = String(uri.dropFirst("postgresql:///".count).prefix { $0 != "?" })
    _ = try cluster.query(
      PostgresSchema.migrations[0] + PostgresSchema.migrations[1]
        + """
        CREATE TABLE schema_version(version bigint NOT NULL);
        INSERT INTO schema_version VALUES (2);
        INSERT INTO sources(source, next_check_at, state) VALUES ('a', 1796130000,
          '{"source":"a","etag":"\\"v1\\"","bodyDigest":18364758544493064720,
            "lastCheckAt":1796126400,"nextCheckAt":1796130000,"nextCheckReason":"ttl",
            "errorsInRow":1,"gone":false,"redirectCount":0,"identityMode":"link","pulls":4,
            "newItemTimes":[1796000000,1796003600]}'), ('b', 0, NULL);
        """, database: database)
    let store = try PostgresSubscriptionStore(uri: uri)
    var expected = SubscriptionState(source: "a")
    expected.etag = "\"v1\""
    expected.bodyDigest = 18_364_758_544_493_064_720
    expected.lastCheckAt = .seconds(1_796_126_400)
    expected.nextCheckAt = .seconds(1_796_130_000)
    expected.nextCheckReason = .ttl
    expected.errorsInRow = 1
    expected.identityMode = .link
    expected.pulls = 4
    expected.newItemTimes = [.seconds(1_796_000_000), .seconds(1_796_003_600)]
    #expect(try store.state(of: "a") == expected)
    #expect(try store.state(of: "b") == SubscriptionState(source: "b"))
  }

  @Test func aDatabaseWithoutAStateIsNotGivenOneWhenNoneMayBeCreated() throws {
    let cluster = try PostgresCluster.start()
    let uri = try cluster.freshDatabase()
    #expect {
      _ = try PostgresSubscriptionStore(uri: uri, create: false)
    } throws: { error in
      (error as? StoreError)?.kind == .noState
    }
    let database = String(uri.dropFirst("postgresql:///".count).prefix { $0 != "?" })
    #expect(try cluster.query("SELECT to_regclass('sources') IS NULL", database: database) == "t")
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
    #expect(try store.claimDue(at: .seconds(1), limit: 5).map(\.source) == ["a"])
    // Restarted between two calls: the next call finds the dropped connection, reconnects
    // and runs, with no error for the caller.
    try cluster.stopServer()
    try cluster.startServer()
    var state = SubscriptionState(source: "a")
    state.nextCheckAt = .seconds(100)
    try store.record(
      PullOutcome(state: state, seenItems: [], sawWholeFeed: true, hostHold: nil, now: .seconds(1)))
    #expect(try store.state(of: "a") == state)
  }
}
