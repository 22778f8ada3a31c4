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
    item.withText(\.content) { body in
      if let body {
        StableHash.add(body, to: &content)
      } else {
        item.withText(\.summary) { Self.add($0, to: &content) }
      }
    }
    self.content = Int64(bitPattern: content)
    var fingerprint = StableHash.seed
    StableHash.add(item.title, to: &fingerprint)
    StableHash.add(item.link, to: &fingerprint)
    item.withText(\.summary) { Self.add($0, to: &fingerprint) }
    item.withText(\.content) { Self.add($0, to: &fingerprint) }
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

  /// The item's text where it lies; absent differs from empty, as in `StableHash`.
  private static func add(_ bytes: UnsafeBufferPointer<UInt8>?, to hash: inout UInt64) {
    if let bytes {
      StableHash.add(bytes, to: &hash)
    } else {
      StableHash.add(nil as [UInt8]?, to: &hash)
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
