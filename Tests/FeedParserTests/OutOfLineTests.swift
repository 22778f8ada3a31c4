import Testing

@testable import FeedParser

/// The box that keeps a record's extension fields out of line: a value type to its users
/// (copies never see each other's changes) and empty without an allocation.
@Suite struct OutOfLineTests {
  @Test func copiesDoNotSeeEachOthersChanges() {
    var first = OutOfLine<FeedItemExtensionFields>()
    #expect(first.isBlank)
    first.value.rights = "one"
    #expect(!first.isBlank)
    var second = first
    #expect(second == first)
    second.value.rights = "two"
    #expect(first.value.rights == "one")
    #expect(second.value.rights == "two")
    #expect(second != first)
    first.value.rights = "two"
    #expect(second == first, "equal values in different storage are equal")
  }

  @Test func aBlankBoxReadsAsABlankValue() {
    let box = OutOfLine<FeedItemExtensionFields>()
    #expect(box.value == FeedItemExtensionFields())
    #expect(box == OutOfLine(FeedItemExtensionFields()))
  }

  @Test func readersByAddressSeeTheValueOrABlankOne() {
    var box = OutOfLine<FeedItemExtensionFields>()
    #expect(box.withUnsafeValue { $0.pointee.rights } == nil)
    box.value.rights = "mine"
    box.value.tags = [FeedTag(term: "a")]
    let copy = box
    box.value.rights = "changed"
    #expect(copy.withUnsafeValue { $0.pointee.rights } == "mine")
    #expect(box.withUnsafeValue { $0.pointee.rights } == "changed")
    #expect(box.withUnsafeValue { $0.pointee.tags.count } == 1)
  }

  @Test func theLastCopyGoneFreesTheValue() {
    let freed = FreedCount()
    do {
      var box = OutOfLine<Tracked>()
      box.value.tracker = Tracker(freed)
      var copy = box
      copy.value.tracker = Tracker(freed)
      #expect(freed.count == 0)
      box = OutOfLine()
      #expect(freed.count == 1, "the first box's value, once nothing held it")
      #expect(copy.value.tracker != nil)
    }
    #expect(freed.count == 2)
  }
}

/// How many trackers were freed; touched by one test's thread only.
private final class FreedCount: @unchecked Sendable {
  var count = 0
}

/// Counts its deinitialization, to see a box's value destroyed.
private final class Tracker: Sendable {
  let freed: FreedCount
  init(_ freed: FreedCount) { self.freed = freed }
  deinit { freed.count += 1 }
}

private struct Tracked: Sendable, Equatable, BlankInitializable {
  var tracker: Tracker?
  static func == (lhs: Tracked, rhs: Tracked) -> Bool { lhs.tracker === rhs.tracker }
}
