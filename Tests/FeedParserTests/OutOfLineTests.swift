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
}
