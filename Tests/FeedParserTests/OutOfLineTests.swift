import Testing

@testable import FeedParser

/// The box that keeps a record's extension fields out of line: a value type to its users
/// (copies never see each other's changes), empty without an allocation, moved in by
/// `init(taking:)` and read in place by `withValue`.
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

  @Test func takingMovesTheValueAndLeavesABlankOne() {
    var fields = FeedItemExtensionFields()
    fields.rights = "kept"
    fields.tags = [FeedTag(term: "a")]
    let box = OutOfLine(taking: &fields)
    #expect(fields == FeedItemExtensionFields())
    #expect(box.value.rights == "kept")
    #expect(box.withValue { $0.tags.map(\.term) } == ["a"])
  }

  @Test func aBlankBoxReadsAsABlankValue() {
    let box = OutOfLine<FeedItemExtensionFields>()
    #expect(box.value == FeedItemExtensionFields())
    #expect(box.withValue { $0.rights } == nil)
    #expect(box == OutOfLine(FeedItemExtensionFields()))
  }
}
