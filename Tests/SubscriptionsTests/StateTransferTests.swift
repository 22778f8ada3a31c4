import Foundation
import TestSupport
import Testing

@testable import Subscriptions

/// `state export` and `state import` through the store protocol: every field survives the trip,
/// in the record conventions, and a bad line stops the import before anything is written.
@Suite struct StateTransferTests {
  static func fullState() -> (SubscriptionState, [RememberedItem]) {
    var state = SubscriptionState(source: "https://user@example.com/feed.xml")
    state.etag = "\"abc\""
    state.lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
    state.bodyDigest = 0xFEDC_BA98_7654_3210
    state.lastCheckAt = .seconds(1_700_000_000)
    state.lastUnconditionalAt = .seconds(1_699_990_000)
    state.nextCheckAt = .seconds(1_700_003_600)
    state.nextCheckReason = .cacheControl
    state.errorsInRow = 2
    state.gone = true
    state.redirectTarget = "https://example.com/new.xml"
    state.redirectCount = 2
    state.movedTo = "https://example.com/moved.xml"
    state.identityMode = .link
    state.pulls = 7
    state.newItemTimes = [.seconds(1_699_000_000), .seconds(1_699_500_000)]
    let items = [
      RememberedItem(
        key: -1, idKey: nil, linkKey: Int64.min, contentKey: Int64.max, fingerprint: 42,
        lastSeenAt: .seconds(1_700_000_000), lastPull: 7),
      RememberedItem(
        key: 5, idKey: 6, linkKey: nil, contentKey: 7, fingerprint: -8,
        lastSeenAt: .seconds(1_600_000_000),
        lastPull: 3, gone: true),
    ]
    return (state, items)
  }

  func exportLines(_ store: any SubscriptionStore) throws -> [String] {
    var lines: [String] = []
    try StateTransfer.export(store) { lines.append($0) }
    return lines
  }

  @Test func everyFieldSurvivesExportAndImport() throws {
    let (state, items) = Self.fullState()
    let store = MemorySubscriptionStore()
    try store.record(
      PullOutcome(state: state, seenItems: items, sawWholeFeed: false, hostHold: nil, now: .zero))
    let lines = try exportLines(store)
    #expect(lines.count == 1)
    let copy = MemorySubscriptionStore()
    let summary = try StateTransfer.importing(
      Data(lines.joined(separator: "\n").utf8), name: "export.jsonl", into: copy)
    #expect(summary == StateTransfer.ImportSummary(restored: 1, registered: 0))
    #expect(try copy.state(of: state.source) == state)
    #expect(
      try copy.ledger(of: state.source).sorted { $0.key < $1.key }
        == items.sorted { $0.key < $1.key })
    #expect(try exportLines(copy) == lines)
  }

  @Test func theExportFollowsTheRecordConventions() throws {
    let (state, items) = Self.fullState()
    let store = MemorySubscriptionStore()
    try store.record(
      PullOutcome(state: state, seenItems: items, sawWholeFeed: false, hostHold: nil, now: .zero))
    let line = try #require(try exportLines(store).first)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["type"] as? String == "subscription")
    #expect(object["next_check_at"] as? String == "2023-11-14T23:13:20Z")
    #expect(object["next_check_reason"] as? String == "cache_control")
    #expect(object["body_digest"] as? String == "fedcba9876543210")
    #expect(object["etag"] as? String == "\"abc\"")
    #expect(object["moved_to"] as? String == "https://example.com/moved.xml")
    #expect(
      object["new_item_times"] as? [String] == ["2023-11-03T08:26:40Z", "2023-11-09T03:20:00Z"])
    let exported = try #require(object["items"] as? [[String: Any]])
    #expect(exported.first?["key"] as? String == "ffffffffffffffff")
    #expect(exported.first?["link_key"] as? String == "8000000000000000")
    #expect(exported.first?["id_key"] == nil)
    #expect(exported.first?["gone"] == nil)
    #expect(exported.last?["gone"] as? Bool == true)
    #expect(!line.contains("null") && !line.contains(":\"\""))
    #expect(!object.keys.contains { $0.contains(where: \.isUppercase) })
  }

  @Test func aSourceNewToTheStateLeavesOutWhatItDoesNotHave() throws {
    let store = MemorySubscriptionStore()
    try store.register(["http://a.example/feed"])
    let line = try #require(try exportLines(store).first)
    #expect(
      line
        == "{\"errors_in_row\":0,\"identity_mode\":\"id\",\"pulls\":0,"
        + "\"source\":\"http://a.example/feed\",\"type\":\"subscription\"}")
  }

  @Test func importReplacesAKnownSourceWhole() throws {
    let (state, items) = Self.fullState()
    let store = MemorySubscriptionStore()
    try store.record(
      PullOutcome(state: state, seenItems: items, sawWholeFeed: false, hostHold: nil, now: .zero))
    var fresh = SubscriptionState(source: state.source)
    fresh.pulls = 1
    let replacement = ExportedSubscription(fresh, items: [])
    let line = String(decoding: try JSONEncoder().encode(replacement), as: UTF8.self)
    _ = try StateTransfer.importing(Data(line.utf8), name: "x", into: store)
    #expect(try store.state(of: state.source) == fresh)
    #expect(try store.ledger(of: state.source).isEmpty)
  }

  /// An import writes a batch a transaction (`importBatch`): 2,500 sources into a new SQLite
  /// state come back as exported, and a source given twice is the second line's, whole (its
  /// items, not the first one's), wherever the batches break.
  @Test func anImportInBatchesRestoresEachSourceWhole() throws {
    let (state, items) = Self.fullState()
    var lines: [String] = []
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    func line(_ state: SubscriptionState, _ items: [RememberedItem]) throws -> String {
      String(decoding: try encoder.encode(ExportedSubscription(state, items: items)), as: UTF8.self)
    }
    for index in 0..<2_500 {
      var other = state
      other.source = "https://example.com/feed/\(index)"
      other.pulls = index
      lines.append(try line(other, index % 3 == 0 ? items : []))
    }
    var again = SubscriptionState(source: "https://example.com/feed/6")
    again.pulls = 99
    let last = RememberedItem(
      key: 77, idKey: nil, linkKey: nil, contentKey: 1, fingerprint: 2,
      lastSeenAt: .seconds(1_700_000_000), lastPull: 99)
    // In the same batch as the first line for it, which remembers items.
    lines.insert(try line(again, [last]), at: 500)
    let store = try SQLiteSubscriptionStore(path: TemporaryState.path())
    let summary = try StateTransfer.importing(
      Data(lines.joined(separator: "\n").utf8), name: "x.jsonl", into: store)
    #expect(summary.restored == 2_501)
    #expect(try store.state(of: again.source)?.pulls == 99)
    #expect(try store.ledger(of: again.source) == [last])
    var expected = lines
    expected.remove(at: 6)
    #expect(Set(try exportLines(store)) == Set(expected))
  }

  @Test(arguments: [
    "{\"type\":\"subscription\"}", "not json",
    "{\"type\":\"subscription\",\"source\":\"a\","
      + "\"errors_in_row\":0,\"identity_mode\":\"id\",\"pulls\":0,\"next_check_at\":\"soon\"}",
    "{\"type\":\"subscription\",\"source\":\"a\",\"errors_in_row\":0,\"identity_mode\":\"id\","
      + "\"pulls\":0,\"items\":[{\"key\":\"12\",\"content_key\":\"0000000000000001\","
      + "\"fingerprint\":\"0000000000000001\",\"last_seen_at\":\"2025-01-01T00:00:00Z\","
      + "\"last_pull\":1}]}",
  ])
  func aBadLineStopsTheImportBeforeAnythingIsWritten(_ bad: String) throws {
    let store = MemorySubscriptionStore()
    try store.register(["http://b.example/"])
    let good = try #require(try exportLines(store).first)
    let empty = MemorySubscriptionStore()
    #expect(throws: TransferError.self) {
      try StateTransfer.importing(Data("\(good)\n\(bad)\n".utf8), name: "x.jsonl", into: empty)
    }
    #expect(try exportLines(empty).isEmpty)
  }

  @Test func aListOrOPMLAddsNewSubscriptionsAndKeepsKnownOnes() throws {
    let (state, items) = Self.fullState()
    let store = MemorySubscriptionStore()
    try store.record(
      PullOutcome(state: state, seenItems: items, sawWholeFeed: false, hostHold: nil, now: .zero))
    let list = "# mine\n\(state.source) \"tag\"\nhttp://new.example/feed\n"
    let summary = try StateTransfer.importing(Data(list.utf8), name: "urls", into: store)
    #expect(summary.registered == 2)
    #expect(try store.state(of: state.source) == state)
    #expect(
      try store.state(of: "http://new.example/feed")
        == SubscriptionState(source: "http://new.example/feed"))
    let opml =
      "<opml version=\"2.0\"><body><outline xmlUrl=\"http://o.example/rss\"/></body></opml>"
    _ = try StateTransfer.importing(Data(opml.utf8), name: "subs.opml", into: store)
    #expect(try store.state(of: "http://o.example/rss") != nil)
  }

  @Test func theOPMLExportIsWellFormedAndNamesEverySource() throws {
    let store = MemorySubscriptionStore()
    let sources = [
      "http://a.example/?x=1&y=<2>", "feeds/local \"quoted\".xml", "https://b.example/",
    ]
    try store.register(sources)
    var moved = SubscriptionState(source: "https://c.example/old")
    moved.movedTo = "https://c.example/new"
    try store.record(
      PullOutcome(state: moved, seenItems: [], sawWholeFeed: false, hostHold: nil, now: .zero))
    let opml = try StateTransfer.opml(store)
    let outlines = OPMLOutlines(Data(opml.utf8))
    #expect(outlines.wellFormed)
    #expect(outlines.version == "2.0")
    #expect(Set(outlines.urls) == Set(sources + ["https://c.example/new"]))
  }
}
