import FeedPullSupport
import Foundation
import TestSupport
import Testing

@testable import Subscriptions

/// How a SQLite store keeps its leases: a row of `claims` per claim, shrunk as the claim's
/// sources end and deleted with the last, so that what another process sees leased is exactly
/// what is still in flight, and nothing is left behind.
@Suite struct SQLiteClaimsTests {
  static let now: Duration = .seconds(1_796_126_400)

  /// An end that wrote `state` whole (no state it started from: the store finds its lease by
  /// name).
  static func ended(_ state: SubscriptionState) -> PullOutcome {
    PullOutcome(state: state, seenItems: [], sawWholeFeed: false, hostHold: nil, now: now)
  }

  /// The claims rows of the file: each one's owner and its sources' row ids.
  static func claims(_ path: String) throws -> [(owner: String, rows: [Int64])] {
    let connection = try SQLiteConnection(path: path, readOnly: true, busyMilliseconds: 1000)
    var claims: [(owner: String, rows: [Int64])] = []
    try connection.run("SELECT lease_owner, sources FROM claims ORDER BY id") { row in
      var rows: [Int64] = []
      row.withBytes(1) { ClaimList.forEachID(in: $0) { rows.append($0) } }
      claims.append((row.text(0) ?? "", rows))
    }
    return claims
  }

  @Test func aClaimIsOneRowThatShrinksAsItsSourcesEndAndGoesWithTheLast() throws {
    let path = TemporaryState.path()
    let holder = try SQLiteSubscriptionStore(path: path)
    let other = try SQLiteSubscriptionStore(path: path)
    let names = (0..<40).map { "https://example.com/\($0)" }
    try holder.register(names)
    let granted = try holder.claim(names, at: Self.now, dueOnly: true, grantLimit: 40)
      .compactMap { if case .granted(let state) = $0 { state } else { nil } }
    #expect(granted.count == 40)
    #expect(try Self.claims(path).map(\.rows.count) == [40])

    // Ten ends in one batch: the claim keeps the other thirty.
    try holder.record(
      granted.prefix(10).map { state in
        var after = state
        after.nextCheckAt = Self.now
        after.lastCheckAt = Self.now
        return PullOutcome(
          state: after, seenItems: [], sawWholeFeed: false, hostHold: nil, now: Self.now,
          before: state)
      })
    #expect(try Self.claims(path).map(\.rows.count) == [30])
    let answers = try other.claim(names, at: Self.now, dueOnly: true, grantLimit: 40)
    #expect(answers.prefix(10).allSatisfy { if case .granted = $0 { true } else { false } })
    #expect(answers.dropFirst(10).allSatisfy { if case .leased = $0 { true } else { false } })
    #expect(answers.count == 40)

    // A release and a postponement shrink it too; the last end deletes it.
    try holder.releaseLeases(of: [names[10]])
    try holder.postpone(names[11], until: Self.now + .seconds(60), reason: .retryAfter)
    #expect(try Self.claims(path).filter { $0.rows.count > 10 }.map(\.rows.count) == [28])
    try holder.record(
      names[12...].map { Self.ended(SubscriptionState(source: $0)) })
    let left = try Self.claims(path)
    #expect(left.count == 1, "only the other store's claim of the ten")
    #expect(left.first?.rows.count == 10)
  }

  @Test func renewingMovesOnlyTheNamedSourcesToAClaimOfTheirOwn() throws {
    let path = TemporaryState.path()
    let holder = try SQLiteSubscriptionStore(path: path)
    try holder.register(["a", "b", "c"])
    _ = try holder.claim(["a", "b", "c"], at: Self.now, dueOnly: true, grantLimit: 3)
    try holder.renewLeases(of: ["b", "unknown"])
    #expect(try Self.claims(path).map(\.rows.count) == [2, 1])
    try holder.record(["a", "c"].map { Self.ended(SubscriptionState(source: $0)) })
    #expect(try Self.claims(path).map(\.rows.count) == [1])
    try holder.releaseLeases(of: ["b"])
    #expect(try Self.claims(path).isEmpty)
  }

  @Test func rowIDsAreWrittenAsJSONDigits() {
    #expect(
      SQLiteJSON.array(of: [0, 7, 10, 99, 100, 123_456_789, Int64.max, -5, Int64.min] as [Int64])
        == "[0,7,10,99,100,123456789,9223372036854775807,-5,-9223372036854775808]")
    #expect(SQLiteJSON.array(of: [] as [Int64]) == "[]")
  }

  @Test func aClaimListReadsItsIDs() {
    var ids: [Int64] = []
    Array("[1,22,333]".utf8).withUnsafeBufferPointer {
      ClaimList.forEachID(in: $0) { ids.append($0) }
    }
    #expect(ids == [1, 22, 333])
    ids = []
    Array("[]".utf8).withUnsafeBufferPointer { ClaimList.forEachID(in: $0) { ids.append($0) } }
    #expect(ids.isEmpty)
  }
}
