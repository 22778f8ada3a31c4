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

  func item(index: Int) -> FeedItem {
    var item = FeedItem(index: index)
    item.id = id
    item.title = title
    item.titleType = title == nil ? nil : "text/plain"
    item.link = url
    if let url { item.links.append(FeedLink(href: url, rel: "alternate")) }
    if let externalURL { item.links.append(FeedLink(href: externalURL, rel: "related")) }
    if let contentHTML {
      item.contentUTF8 = contentHTML
      item.contentType = "text/html"
    } else if let contentText {
      item.contentUTF8 = contentText
      item.contentType = "text/plain"
    }
    if let summary {
      item.summaryUTF8 = summary
      item.summaryType = "text/plain"
    }
    item.image = image
    item.published = published
    item.updated = updated
    item.language = language
    // An item without authors of its own does not take the feed's: the record says what the
    // item says (a consumer can fall back to the feed record's authors itself).
    let people = authorList.isEmpty ? author.map { [$0] } ?? [] : authorList
    item.authors = people.filter { $0.name != nil || $0.uri != nil }
    item.categories = tags.filter { !$0.isEmpty }
    item.enclosures = enclosures
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
