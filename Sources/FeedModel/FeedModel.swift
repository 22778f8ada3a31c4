/// The values a feed document yields, as the output format names them (docs/format.md).
/// A field with no value is `nil` or empty, never `""`: writers leave it out.

/// feedparser's version codes, which the output keeps (docs/format.md).
public enum FeedVersion: String, Sendable, Equatable {
  case rss090, rss091u, rss091n, rss092, rss093, rss094, rss20, rss10, rss
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

/// An author: Atom `author`, RSS `author`/`managingEditor` ("email (Name)"), `dc:creator`.
public struct FeedPerson: Sendable, Equatable {
  public var name: String?
  public var email: String?
  public var uri: String?
  public init(name: String? = nil, email: String? = nil, uri: String? = nil) {
    self.name = name
    self.email = email
    self.uri = uri
  }
}

/// An Atom `link`, or an RSS `link` as `alternate`.
public struct FeedLink: Sendable, Equatable {
  public var href: String
  public var rel: String?
  public var type: String?
  public var title: String?
  public var length: Int64?
  public init(
    href: String, rel: String? = nil, type: String? = nil, title: String? = nil,
    length: Int64? = nil
  ) {
    self.href = href
    self.rel = rel
    self.type = type
    self.title = title
    self.length = length
  }
}

/// An RSS `enclosure`, an Atom `rel="enclosure"` link, or a `media:content`.
public struct FeedEnclosure: Sendable, Equatable {
  public var url: String
  public var type: String?
  public var length: Int64?
  /// A JSON Feed attachment's own name for it, which a player may show.
  public var title: String?
  /// Seconds of audio or video, when the feed gives them as a number (JSON Feed attachments).
  public var duration: Double?
  public init(url: String, type: String? = nil, length: Int64? = nil) {
    self.url = url
    self.type = type
    self.length = length
  }
}

/// The channel (RSS) or feed (Atom) element's own fields.
public struct FeedChannel: Sendable, Equatable {
  public var version: FeedVersion
  public var id: String?
  public var title: String?
  public var titleType: String?
  public var link: String?
  /// The feed's own URL, when the feed names it (`atom:link rel="self"`).
  public var selfLink: String?
  public var description: String?
  public var language: String?
  public var updated: FeedDate?
  public var published: FeedDate?
  public var generator: String?
  public var image: String?
  public var icon: String?
  public var rights: String?
  public var authors: [FeedPerson] = []
  public var categories: [String] = []
  /// How often the feed says it changes; nil when it says nothing.
  public var schedule: FeedSchedule?
  /// WebSub hubs that push the feed's updates (`link rel="hub"`, JSON Feed `hubs`).
  public var hubs: [String] = []
  /// The fields of the extension section, out of line (see `OutOfLine`).
  package var extensionFields = OutOfLine<FeedChannelExtensionFields>()
  /// True when a JSON Feed says it will never update again: a reader can stop pulling it.
  public var expired = false
  public init(version: FeedVersion) { self.version = version }
}

/// One RSS `item` or Atom `entry`.
public struct FeedItem: Sendable, Equatable {
  /// 0-based position among the document's items.
  public var index: Int
  public var id: String?
  public var title: String?
  public var titleType: String?
  public var link: String?
  public var links: [FeedLink] = []
  public var summaryType: String?
  public var contentType: String?
  public var published: FeedDate?
  public var updated: FeedDate?
  public var authors: [FeedPerson] = []
  public var categories: [String] = []
  public var enclosures: [FeedEnclosure] = []
  public var comments: String?
  /// The item's own picture: itunes:image, else the first media:thumbnail (JSON Feed `image`).
  public var image: String?
  /// The fields of the extension section, out of line (see `OutOfLine`).
  package var extensionFields = OutOfLine<FeedItemExtensionFields>()
  /// The item's language when it differs from the feed's (JSON Feed 1.1 items carry one).
  public var language: String?
  /// The summary and the content are most of a feed's bytes. They stay the UTF-8 that the
  /// parser produced (valid by construction), so that writing them as JSON copies bytes; a
  /// `String` would validate every byte once more, which was the largest single cost of a
  /// parse (callgrind, 100 MB RSS). `summary` and `content` make the strings on demand.
  package var summaryUTF8: [UInt8]?
  package var contentUTF8: [UInt8]?
  public init(index: Int) { self.index = index }

  public var summary: String? {
    get { summaryUTF8.map { String(decoding: $0, as: UTF8.self) } }
    set { summaryUTF8 = newValue.map { Array($0.utf8) } }
  }

  public var content: String? {
    get { contentUTF8.map { String(decoding: $0, as: UTF8.self) } }
    set { contentUTF8 = newValue.map { Array($0.utf8) } }
  }
}

/// What the parser hands over, in document order: at most one channel, before the first item.
public enum FeedEvent: Sendable, Equatable {
  case channel(FeedChannel)
  case item(FeedItem)
}

/// Why a document could not be read to its end as a feed.
public struct FeedParseFailure: Error, Sendable, Equatable {
  public enum Kind: String, Sendable {
    /// An empty body, a fatal XML error, a cut-off document, nesting or entities past a limit.
    case xml
    /// Well-formed enough, but the root is not RSS, RDF or Atom (HTML, JSON, another vocabulary).
    case notAFeed = "not_a_feed"
  }
  public var kind: Kind
  public var message: String
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
  public init(wellformed: Bool, encoding: String?, failure: FeedParseFailure?) {
    self.wellformed = wellformed
    self.encoding = encoding
    self.failure = failure
  }
}
