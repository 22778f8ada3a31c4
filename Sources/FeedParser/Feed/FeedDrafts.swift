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

/// An Atom `author` or `contributor` (name, email, uri children) or an RSS `author`
/// ("email (Name)" text).
struct PersonDraft {
  let depth: Int
  let isContributor: Bool
  var person = FeedPerson()
  var text: [UInt8] = []

  init(depth: Int, isContributor: Bool = false) {
    self.depth = depth
    self.isContributor = isContributor
  }
}
