import FeedPull

/// The keys one item can be known by, and the fingerprint of what a reader sees of it.
struct ItemKeys: Equatable {
  /// Hashes of the id and link; nil when the item has none.
  var id: Int64?
  var link: Int64?
  /// Title, date and content: the key of last resort.
  var content: Int64
  /// Title, link, summary, content and enclosures: a change here makes the item `updated`.
  var fingerprint: Int64

  init(_ item: FeedItem) {
    id = item.id.map(StableHash.of)
    link = item.link.map(StableHash.of)
    var content = StableHash.seed
    StableHash.add(item.title, to: &content)
    StableHash.add(Self.dateText(item.published ?? item.updated), to: &content)
    StableHash.add(item.contentUTF8 ?? item.summaryUTF8, to: &content)
    self.content = Int64(bitPattern: content)
    var fingerprint = StableHash.seed
    StableHash.add(item.title, to: &fingerprint)
    StableHash.add(item.link, to: &fingerprint)
    StableHash.add(item.summaryUTF8, to: &fingerprint)
    StableHash.add(item.contentUTF8, to: &fingerprint)
    for enclosure in item.enclosures { StableHash.add(enclosure.url, to: &fingerprint) }
    self.fingerprint = Int64(bitPattern: fingerprint)
  }

  /// The key that identifies the item in `mode`, falling back down the list when it is missing.
  func primary(_ mode: IdentityMode) -> Int64 {
    switch mode {
    case .id: id ?? link ?? content
    case .link: link ?? content
    case .hash: content
    }
  }

  private static func dateText(_ date: FeedDate?) -> String? {
    switch date {
    case .instant(let seconds): String(seconds)
    case .raw(let text): text
    case nil: nil
    }
  }
}
