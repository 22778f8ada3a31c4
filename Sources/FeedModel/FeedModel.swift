/// The values a feed document yields, as the output format names them (docs/format.md).
/// A field with no value is `nil` or empty, never `""`: writers leave it out.

/// feedparser's version codes, which the output keeps (docs/format.md).
public enum FeedVersion: String, Sendable, Equatable {
  /// RSS 0.90, 0.91 (Userland, Netscape), 0.92, 0.93, 0.94, 2.0, 1.0 (RDF), and RSS of an
  /// unknown version.
  case rss090, rss091u, rss091n, rss092, rss093, rss094, rss20, rss10, rss
  /// Atom 0.3, Atom 1.0, and Atom of an unknown version.
  case atom03, atom10, atom
  /// JSON Feed 1.0 and 1.1 (jsonfeed.org).
  case json10, json11
}

/// A date as the feed gave it: an instant when it could be read, else the text.
public enum FeedDate: Sendable, Equatable {
  /// Seconds since 1970-01-01T00:00:00Z.
  case instant(Int64)
  /// Text that no known date form matched, kept for `*_raw`.
  case raw(String)
}

/// The channel (RSS) or feed (Atom) element's own fields: `ChannelFields`' rows, read by name
/// (`channel.title`, `channel.itunes?.author`) and made into their Swift types when read. The
/// values live in one `RecordStorage`, shared by copies until one changes.
@dynamicMemberLookup
public struct FeedChannel: Sendable, Equatable {
  /// Which format and version the document was, feedparser's code (`rss20`, `atom10`, `json11`).
  public var version: FeedVersion
  /// The rows' values.
  @usableFromInline package var storage: RecordStorage

  /// An empty channel of `version`; the parser fills in what the document gives.
  public init(version: FeedVersion) {
    self.version = version
    storage = RecordStorage(rootCount: ChannelFields.fieldCount, bytes: 1024)
  }

  /// The field `field`: `Value?` for one value, `[Element]` for a list (empty when none).
  @inlinable
  public subscript<Value>(dynamicMember field: KeyPath<ChannelFields, Field<Value>>)
    -> Value.Accessed
  {
    get { Value.read(storage, at: ChannelFields.row(field)) }
    set {
      if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
      Value.write(newValue, to: storage, at: ChannelFields.row(field))
    }
  }

  /// Equal when the versions and every field are.
  public static func == (lhs: FeedChannel, rhs: FeedChannel) -> Bool {
    lhs.version == rhs.version
      && RecordStorage.equalBlocks(
        lhs.storage, 0, rhs.storage, 0, count: ChannelFields.fieldCount)
  }
}

/// One RSS `item` or Atom `entry`: `ItemFields`' rows, read by name (`item.title`,
/// `item.enclosures`, `item.podcast?.transcripts`) and made into their Swift types when read.
/// The values live in one `RecordStorage`: the parser fills it from the document's bytes and
/// the JSON Lines writer writes from it, with no `String` made; copies share it until one
/// changes.
@dynamicMemberLookup
public struct FeedItem: Sendable, Equatable {
  /// 0-based position among the document's items.
  public var index: Int
  /// The rows' values.
  @usableFromInline package var storage: RecordStorage

  /// An empty item at position `index` in its document.
  public init(index: Int) {
    self.index = index
    storage = RecordStorage(rootCount: ItemFields.fieldCount, bytes: 2048)
  }

  /// An item whose values are in `storage` (the parser's).
  package init(index: Int, storage: RecordStorage) {
    self.index = index
    self.storage = storage
  }

  /// The field `field`: `Value?` for one value, `[Element]` for a list (empty when none).
  @inlinable
  public subscript<Value>(dynamicMember field: KeyPath<ItemFields, Field<Value>>)
    -> Value.Accessed
  {
    get { Value.read(storage, at: ItemFields.row(field)) }
    set {
      if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
      Value.write(newValue, to: storage, at: ItemFields.row(field))
    }
  }

  /// The UTF-8 of a text field where it lies (nil when the item has none), for readers that
  /// want bytes: the JSON writer, a subscription's content hash.
  @inlinable
  package func withText<Result>(
    _ field: KeyPath<ItemFields, Field<String>>,
    _ body: (UnsafeBufferPointer<UInt8>?) -> Result
  ) -> Result {
    withExtendedLifetime(storage) { body(storage.text(at: ItemFields.row(field))) }
  }

  /// Equal when the positions and every field are.
  public static func == (lhs: FeedItem, rhs: FeedItem) -> Bool {
    lhs.index == rhs.index
      && RecordStorage.equalBlocks(lhs.storage, 0, rhs.storage, 0, count: ItemFields.fieldCount)
  }
}

/// What the parser hands over, in document order: at most one channel, before the first item.
public enum FeedEvent: Sendable, Equatable {
  /// The feed's own fields, once, before its first item (or at the end when it has none).
  case channel(FeedChannel)
  /// One complete item, the moment its end tag (or JSON object) has been parsed.
  case item(FeedItem)
}

/// Why a document could not be read to its end as a feed.
public struct FeedParseFailure: Error, Sendable, Equatable {
  /// The two ways a document fails as a feed, written as `error.kind`.
  public enum Kind: String, Sendable {
    /// An empty body, a fatal XML error, a cut-off document, nesting or entities past a limit.
    case xml
    /// Well-formed enough, but the root is not RSS, RDF or Atom (HTML, JSON, another vocabulary).
    case notAFeed = "not_a_feed"
  }
  /// Which way it failed.
  public var kind: Kind
  /// What happened, for a person (`nesting deeper than 512`).
  public var message: String
  /// A failure of `kind`, explained by `message`.
  public init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }
}

/// How a document ended.
public struct FeedParseResult: Sendable, Equatable {
  /// False when the parser had to recover from an XML error (or stopped on one).
  public var wellformed: Bool
  /// The encoding the document was decoded from, a lower-case IANA name (`utf-8`, `shift_jis`).
  public var encoding: String?
  /// Nil when the document was read to its end as a feed.
  public var failure: FeedParseFailure?
  /// A document's outcome, as the parser judged it at its end.
  public init(wellformed: Bool, encoding: String?, failure: FeedParseFailure?) {
    self.wellformed = wellformed
    self.encoding = encoding
    self.failure = failure
  }
}
