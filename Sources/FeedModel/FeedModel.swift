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

/// An author: Atom `author`, RSS `author`/`managingEditor` ("email (Name)"), `dc:creator`.
public struct FeedPerson: Sendable, Equatable {
  /// The person's name, trimmed; nil when the feed gives only an email or a URI.
  public var name: String?
  /// An email address, from Atom `email` or split out of `email (Name)` / `Name <email>`.
  public var email: String?
  /// The person's web page (Atom `uri`, JSON Feed `url`), resolved against the document's URL.
  public var uri: String?
  /// A person; at least one part should be given, or writers leave the person out.
  public init(name: String? = nil, email: String? = nil, uri: String? = nil) {
    self.name = name
    self.email = email
    self.uri = uri
  }
}

/// An Atom `link`, or an RSS `link` as `alternate`.
public struct FeedLink: Sendable, Equatable {
  /// The link's target, resolved against `xml:base` and the document's URL.
  public var href: String
  /// The relation (`alternate`, `self`, `enclosure`, `related`, `replies`, …); the parser fills in
  /// `alternate` when the feed gives none.
  public var rel: String?
  /// The MIME type of the target; the XML parser defaults it to `text/html`
  /// (`application/atom+xml` for `self`), a JSON Feed link has none.
  public var type: String?
  /// A human-readable label the feed gives the link; nil when none.
  public var title: String?
  /// The target's size in bytes as the feed states it; nil when absent or not an integer.
  public var length: Int64?
  /// A link as read; no defaults are applied here.
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
  /// The media file's URL, resolved; the enclosure's identity (two enclosures with one URL are one).
  public var url: String
  /// The MIME type (`audio/mpeg`); nil when the feed leaves it out, which is common.
  public var type: String?
  /// Size in bytes as the feed states it; nil when absent or not an integer (feeds write `0` or
  /// junk here often, so do not trust it for allocation).
  public var length: Int64?
  /// A JSON Feed attachment's own name for it, which a player may show.
  public var title: String?
  /// Seconds of audio or video, when the feed gives them as a number (JSON Feed attachments).
  public var duration: Double?
  /// An enclosure; `title` and `duration` are set afterwards by the JSON Feed reader only.
  public init(url: String, type: String? = nil, length: Int64? = nil) {
    self.url = url
    self.type = type
    self.length = length
  }
}

/// The channel (RSS) or feed (Atom) element's own fields.
public struct FeedChannel: Sendable, Equatable {
  /// Which format and version the document was, feedparser's code (`rss20`, `atom10`, `json11`).
  public var version: FeedVersion
  /// Atom `id`, kept exactly as given, never resolved; nil for RSS and JSON Feed.
  public var id: String?
  /// The feed's title, trimmed; nil when it has none.
  public var title: String?
  /// What kind of text `title` is: `text/plain`, `text/html`, `application/xhtml+xml` or another
  /// MIME type; nil only when there is no title.
  public var titleType: String?
  /// The site's page the feed belongs to: the last alternate HTML link, resolved.
  public var link: String?
  /// The feed's own URL, when the feed names it (`atom:link rel="self"`).
  public var selfLink: String?
  /// RSS `description`, Atom `subtitle` (0.3 `tagline`), JSON Feed `description`; any HTML in
  /// it is kept as the feed wrote it.
  public var description: String?
  /// A language tag (`en-GB`): `language`, `dc:language`, else the root's `xml:lang`.
  public var language: String?
  /// When the feed last changed: Atom `updated`, RSS `lastBuildDate`, `dc:date`.
  public var updated: FeedDate?
  /// When the feed was published: RSS `pubDate`, `dcterms:issued`.
  public var published: FeedDate?
  /// The software that wrote the feed, as text.
  public var generator: String?
  /// A URL of the feed's picture: RSS `image/url`, Atom `logo`, `itunes:image`, JSON Feed `icon`.
  public var image: String?
  /// A URL of a small square icon: Atom `icon`, JSON Feed `favicon`.
  public var icon: String?
  /// The copyright statement: `rights`, `copyright`, `dc:rights`.
  public var rights: String?
  /// The feed's authors in document order; empty when it names none.
  public var authors: [FeedPerson] = []
  /// Plain category terms (`category`, Atom `term`, `dc:subject`); schemes and labels are in
  /// `tags`.
  public var categories: [String] = []
  /// How often the feed says it changes; nil when it says nothing.
  public var schedule: FeedSchedule?
  /// WebSub hubs that push the feed's updates (`link rel="hub"`, JSON Feed `hubs`).
  public var hubs: [String] = []
  /// The fields of the extension section, out of line (see `OutOfLine`).
  package var extensionFields = OutOfLine<FeedChannelExtensionFields>()
  /// True when a JSON Feed says it will never update again: a reader can stop pulling it.
  public var expired = false
  /// An empty channel of `version`; the parser fills in what the document gives.
  public init(version: FeedVersion) { self.version = version }
}

/// One RSS `item` or Atom `entry`.
public struct FeedItem: Sendable, Equatable {
  /// 0-based position among the document's items.
  public var index: Int
  /// RSS `guid`, Atom `id`, RSS 1.0 `rdf:about`, JSON Feed `id`: kept exactly as given, never
  /// resolved; what subscriptions identify the item by first.
  public var id: String?
  /// The item's title, trimmed; nil when it has none (common in RSS).
  public var title: String?
  /// What kind of text `title` is (`text/plain`, `text/html`, …); nil only when there is no title.
  public var titleType: String?
  /// The item's page: its last alternate HTML link, else (RSS) a guid that is a URL and a
  /// permalink.
  public var link: String?
  /// Every link of the item in document order, the RSS `link` as `alternate` among them.
  public var links: [FeedLink] = []
  /// What kind of text `summary` is; nil only when there is no summary.
  public var summaryType: String?
  /// What kind of text `content` is; nil only when there is no content.
  public var contentType: String?
  /// When the item was published: RSS `pubDate`, Atom `published`, `dc:date`.
  public var published: FeedDate?
  /// When the item last changed: Atom `updated`, `dcterms:modified`.
  public var updated: FeedDate?
  /// The item's authors in document order; an item does not inherit the feed's.
  public var authors: [FeedPerson] = []
  /// Plain category terms; schemes and labels are in `tags`.
  public var categories: [String] = []
  /// Media files attached to the item, each URL once, in document order.
  public var enclosures: [FeedEnclosure] = []
  /// A URL of the item's comments page (RSS `comments`).
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
  /// An empty item at position `index` in its document.
  public init(index: Int) { self.index = index }

  /// RSS `description`, Atom `summary`, JSON Feed `summary`: text as the feed gives it, HTML not
  /// stripped (see `summaryType`). Made from the stored UTF-8 on each read.
  public var summary: String? {
    get { summaryUTF8.map { String(decoding: $0, as: UTF8.self) } }
    set { summaryUTF8 = newValue.map { Array($0.utf8) } }
  }

  /// `content:encoded`, Atom `content`, JSON Feed `content_html`/`content_text`: the full text,
  /// HTML not stripped (see `contentType`). Made from the stored UTF-8 on each read.
  public var content: String? {
    get { contentUTF8.map { String(decoding: $0, as: UTF8.self) } }
    set { contentUTF8 = newValue.map { Array($0.utf8) } }
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
