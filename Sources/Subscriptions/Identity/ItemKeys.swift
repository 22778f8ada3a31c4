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

  /// Both hashes in one pass over each text they share (the title, and the body: the content,
  /// else the summary), with the values of hashing them one after the other: content key =
  /// title, date, content (else summary); fingerprint = title, link, summary, content,
  /// enclosure URLs.
  init(_ item: FeedItem) {
    id = item.id.map(StableHash.of)
    link = item.link.map(StableHash.of)
    var content = StableHash.seed
    var fingerprint = StableHash.seed
    Self.add(item.title, to: &content, and: &fingerprint)
    StableHash.add(Self.dateText(item.published ?? item.updated), to: &content)
    StableHash.add(item.link, to: &fingerprint)
    item.withText(\.content) { body in
      if let body {
        item.withText(\.summary) { Self.add($0, to: &fingerprint) }
        StableHash.add(body, to: &content, and: &fingerprint)
      } else {
        item.withText(\.summary) { Self.add($0, to: &content, and: &fingerprint) }
        Self.add(nil, to: &fingerprint)
      }
    }
    for enclosure in item.enclosures { StableHash.add(enclosure.url, to: &fingerprint) }
    self.content = Int64(bitPattern: content)
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

  /// The same text into both hashes, in one pass; absent differs from empty.
  private static func add(
    _ bytes: UnsafeBufferPointer<UInt8>?, to first: inout UInt64, and second: inout UInt64
  ) {
    if let bytes {
      StableHash.add(bytes, to: &first, and: &second)
    } else {
      StableHash.add(nil as [UInt8]?, to: &first)
      StableHash.add(nil as [UInt8]?, to: &second)
    }
  }

  private static func add(_ text: String?, to first: inout UInt64, and second: inout UInt64) {
    guard var text else { return add(nil as UnsafeBufferPointer<UInt8>?, to: &first, and: &second) }
    text.withUTF8 { add($0, to: &first, and: &second) }
  }

  private static func dateText(_ date: FeedDate?) -> String? {
    switch date {
    case .instant(let seconds): String(seconds)
    case .raw(let text): text
    case nil: nil
    }
  }
}
