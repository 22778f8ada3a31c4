import FeedPull
import Testing

@testable import Subscriptions

/// Item identity: new, updated, seen, the fallback rule and the mode a source moves to.
@Suite struct ItemMatcherTests {
  static func item(
    _ index: Int, id: String?, link: String?, title: String, content: String? = nil
  ) -> FeedItem {
    var item = FeedItem(index: index)
    item.id = id
    item.link = link
    item.title = title
    item.content = content
    return item
  }

  /// Runs one pull over `items` and returns the statuses, the items to remember and the mode.
  static func pull(
    _ items: [FeedItem], after remembered: [RememberedItem] = [], mode: IdentityMode = .id,
    number: Int = 1
  ) -> ([ItemStatus], [RememberedItem], IdentityMode) {
    var matcher = ItemMatcher(mode: mode, remembered: remembered, pull: number, now: .seconds(1000))
    let statuses = items.map { matcher.classify($0) }
    return (statuses, merge(remembered, matcher.seenThisPull), matcher.nextMode)
  }

  /// What the store would hold after recording `seen` (upsert by key).
  static func merge(_ old: [RememberedItem], _ seen: [RememberedItem]) -> [RememberedItem] {
    var byKey: [Int64: RememberedItem] = [:]
    for item in old + seen { byKey[item.key] = item }
    return Array(byKey.values)
  }

  static let feed = (0..<20).map {
    item($0, id: "id-\($0)", link: "https://example.com/\($0)", title: "Item \($0)")
  }

  @Test func aFeedThatGainsOneItemHasExactlyThatItemNew() {
    let (first, remembered, mode) = Self.pull(Self.feed)
    #expect(first.allSatisfy { $0 == .new })
    #expect(mode == .id)
    let grown =
      [Self.item(20, id: "id-20", link: "https://example.com/20", title: "New")]
      + Self.feed
    let (second, _, _) = Self.pull(grown, after: remembered, number: 2)
    #expect(second.first == .new)
    #expect(second.dropFirst().allSatisfy { $0 == .seen })
  }

  @Test func anEditedItemIsUpdated() {
    let (_, remembered, _) = Self.pull(Self.feed)
    var edited = Self.feed
    edited[3].content = "now with content"
    let (statuses, _, _) = Self.pull(edited, after: remembered, number: 2)
    #expect(statuses[3] == .updated)
    #expect(statuses.enumerated().allSatisfy { $0.offset == 3 || $0.element == .seen })
  }

  @Test func aGuidThatChangesOnEveryPullIsTheSameItemByItsLinkAndMovesTheSourceToLinks() {
    func churned(_ pull: Int) -> [FeedItem] {
      (0..<20).map {
        Self.item($0, id: "\(pull)-\($0)", link: "https://example.com/\($0)", title: "Item \($0)")
      }
    }
    let (_, first, _) = Self.pull(churned(1))
    let (second, remembered, mode) = Self.pull(churned(2), after: first, number: 2)
    #expect(second.allSatisfy { $0 == .seen })
    #expect(mode == .link)
    let (third, _, stays) = Self.pull(churned(3), after: remembered, mode: mode, number: 3)
    #expect(third.allSatisfy { $0 == .seen })
    #expect(stays == .link)
  }

  @Test func itemsSharingOneLinkAreStillTwoItemsByTheirIds() {
    let shared = (0..<10).map {
      Self.item($0, id: "id-\($0)", link: "https://example.com/", title: "Item \($0)")
    }
    let (first, remembered, mode) = Self.pull(shared)
    #expect(first.allSatisfy { $0 == .new })
    #expect(mode == .id)
    let grown =
      [Self.item(10, id: "id-10", link: "https://example.com/", title: "Item 10")]
      + shared
    let (second, _, _) = Self.pull(grown, after: remembered, number: 2)
    #expect(second.first == .new)
  }

  @Test func missingIdsMoveTheSourceToLinksAndMissingLinksToTheContentHash() {
    let noIds = (0..<20).map {
      Self.item(
        $0, id: $0 < 2 ? nil : "id-\($0)", link: "https://example.com/\($0)", title: "T\($0)")
    }
    #expect(Self.pull(noIds).2 == .link)
    let nothing = (0..<20).map { Self.item($0, id: nil, link: nil, title: "T\($0)") }
    let (statuses, remembered, mode) = Self.pull(nothing)
    #expect(statuses.allSatisfy { $0 == .new })
    #expect(mode == .hash)
    let (again, _, _) = Self.pull(nothing, after: remembered, mode: .hash, number: 2)
    #expect(again.allSatisfy { $0 == .seen })
  }

  @Test func oneMissingIdInTwentyIsWithinFivePercent() {
    let feed = (0..<20).map {
      Self.item($0, id: $0 == 0 ? nil : "id-\($0)", link: "https://example.com/\($0)", title: "T")
    }
    #expect(Self.pull(feed).2 == .id)
  }

  @Test func repeatedIdsMoveTheSourceToLinks() {
    let feed = (0..<20).map {
      Self.item($0, id: "same", link: "https://example.com/\($0)", title: "T\($0)")
    }
    #expect(Self.pull(feed).2 == .link)
  }

  @Test func anItemTwiceInOneBodyIsWrittenOnce() {
    let twice = [Self.feed[0], Self.feed[0]]
    #expect(Self.pull(twice).0 == [.new, .seen])
  }
}
