/// The item being read, with what decides its fields at its end.
struct ItemDraft {
  var item: FeedItem
  let depth: Int
  var guid: String?
  var guidIsPermalink = true
  var iTunesAuthor: FeedPerson?

  init(index: Int, depth: Int) {
    item = FeedItem(index: index)
    self.depth = depth
  }
}

/// An Atom `author` (name, email, uri children) or an RSS `author` ("email (Name)" text).
struct PersonDraft {
  let depth: Int
  var person = FeedPerson()
  var text: [UInt8] = []

  init(depth: Int) { self.depth = depth }
}
