import Testing

@testable import FeedParser

/// The storage a record's values live in: a value to its users (copies never see each other's
/// changes), read in place by the writers, reused by the parser only when no one kept the last
/// item, and as large as what it holds however often a field is replaced.
@Suite struct RecordStorageTests {
  @Test func copiesDoNotSeeEachOthersChanges() {
    var first = FeedItem(index: 0)
    first.rights = "one"
    var second = first
    #expect(second == first)
    second.rights = "two"
    #expect(first.rights == "one")
    #expect(second.rights == "two")
    #expect(second != first)
    first.rights = "two"
    #expect(second == first, "equal values in different storages are equal")
  }

  @Test func objectsReadInPlaceAndCopyThemselvesOutBeforeAChange() {
    var item = FeedItem(index: 0)
    var itunes = ITunesInfo()
    itunes.duration = 60
    itunes.keywords = ["a", "b"]
    itunes.categories = [["Technology", "Gadgets"], ["News"]]
    item.itunes = itunes
    var view = item.itunes!
    #expect(view.keywords == ["a", "b"])
    #expect(view.categories == [["Technology", "Gadgets"], ["News"]])
    view.duration = 120
    #expect(item.itunes?.duration == 60, "the item did not change with its object's copy")
    #expect(view.duration == 120)
    #expect(view.keywords == ["a", "b"], "the copy has the rest of the object")
  }

  /// A text copied from a field of the storage into another, past the buffer's room, is read
  /// before the buffer moves.
  @Test func aTextCopiedWithinTheStorageSurvivesItsGrowth() {
    let storage = RecordStorage(rootCount: ItemFields.fieldCount, bytes: 16)
    let item = Block<ItemFields>.root
    storage.setText(item, \.title, "a title longer than the room")
    for _ in 0..<20 {
      storage.setText(item, \.summary, storage.text(item, \.title)!)
      storage.setText(item, \.title, storage.text(item, \.summary)!)
    }
    #expect(storage.value(item, \.summary) == "a title longer than the room")
    #expect(storage.value(item, \.title) == "a title longer than the room")
  }

  /// A field replaced a million times leaves the storage as large as what it holds (the
  /// replaced texts are dropped once they are most of it).
  @Test func replacedTextsAreGivenBack() {
    let storage = RecordStorage(rootCount: ItemFields.fieldCount)
    let item = Block<ItemFields>.root
    let value = String(repeating: "x", count: 100)
    storage.setText(item, \.summary, "kept")
    for index in 0..<1_000_000 { storage.setText(item, \.title, value + String(index % 10)) }
    #expect(storage.textBytes < 1 << 18)
    #expect(storage.value(item, \.summary) == "kept")
    #expect(storage.value(item, \.title) == value + "9")
  }

  /// The parser writes the next item into the last one's storage only when nothing kept that
  /// item: items kept by whoever received them stay as they were.
  @Test func keptItemsStayAsTheyWereWhenTheNextIsParsed() {
    let items = (0..<50).map {
      "<item><title>t\($0)</title><link>https://e.example/\($0)</link></item>"
    }
    let feed = "<rss version=\"2.0\"><channel><title>c</title>\(items.joined())</channel></rss>"
    var kept: [FeedItem] = []
    var seen = 0
    let parser = FeedDocumentParser(documentURL: nil) { event in
      guard case .item(let item) = event else { return }
      seen += 1
      if item.index % 2 == 0 { kept.append(item) }
    }
    parser.parse(Array(feed.utf8))
    #expect(parser.finish().failure == nil)
    #expect(seen == 50)
    #expect(kept.map(\.title) == stride(from: 0, to: 50, by: 2).map { "t\($0)" })
    #expect(kept.map(\.link) == stride(from: 0, to: 50, by: 2).map { "https://e.example/\($0)" })
  }
}
