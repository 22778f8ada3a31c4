/// A JSON Feed item while its object is open: each key's value as read, turned into a
/// `FeedItem` when the object closes (keys come in any order, and some decide others: HTML
/// content wins over text content, `authors` over `author`).
struct JSONItemDraft {
  var id: String?
  var url: String?
  var externalURL: String?
  var title: String?
  var contentHTML: [UInt8]?
  var contentText: [UInt8]?
  var summary: [UInt8]?
  var image: String?
  var published: FeedDate?
  var updated: FeedDate?
  var language: String?
  var author: FeedPerson?
  var authorList: [FeedPerson] = []
  var tags: [String] = []
  var enclosures: [FeedEnclosure] = []

  /// The item, its values moved out of the draft (`take`, `swap`): copied, every string and
  /// array was retained here and released with the draft, some fifteen of each an item.
  mutating func takeItem(index: Int) -> FeedItem {
    var item = FeedItem(index: index)
    item.id = id.take()
    item.title = title.take()
    item.titleType = item.title == nil ? nil : "text/plain"
    if let url = url.take() {
      item.link = url
      item.links.append(FeedLink(href: url, rel: "alternate"))
    }
    if let externalURL = externalURL.take() {
      item.links.append(FeedLink(href: externalURL, rel: "related"))
    }
    if let contentHTML = contentHTML.take() {
      item.contentUTF8 = contentHTML
      item.contentType = "text/html"
    } else if let contentText = contentText.take() {
      item.contentUTF8 = contentText
      item.contentType = "text/plain"
    }
    if let summary = summary.take() {
      item.summaryUTF8 = summary
      item.summaryType = "text/plain"
    }
    item.image = image.take()
    item.published = published.take()
    item.updated = updated.take()
    item.language = language.take()
    // An item without authors of its own takes the feed's, in `JSONFeedBuilder`.
    var people: [FeedPerson] = []
    if authorList.isEmpty {
      if let author = author.take() { people.append(author) }
    } else {
      swap(&people, &authorList)
    }
    if people.contains(where: { $0.name == nil && $0.uri == nil }) {
      people.removeAll { $0.name == nil && $0.uri == nil }
    }
    item.authors = people
    if tags.contains(where: \.isEmpty) { tags.removeAll(where: \.isEmpty) }
    swap(&item.categories, &tags)
    swap(&item.enclosures, &enclosures)
    return item
  }
}

/// A JSON Feed attachment while its object is open.
struct JSONAttachmentDraft {
  var url: String?
  var type: String?
  var title: String?
  var length: Int64?
  var duration: Double?

  /// Nil without a URL, which the specification requires.
  var enclosure: FeedEnclosure? {
    guard let url else { return nil }
    var enclosure = FeedEnclosure(url: url, type: type, length: length)
    enclosure.title = title
    enclosure.duration = duration
    return enclosure
  }
}
