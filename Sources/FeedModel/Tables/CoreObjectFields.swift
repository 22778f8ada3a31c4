/// The small objects of the core fields: people, links, enclosures, tags, an item's origin and
/// the entries it answers. Each table is its object's rows in output order; the typealiases
/// keep the names embedders know (`FeedPerson`, `FeedLink`, …).

/// An author: Atom `author`, RSS `author`/`managingEditor` ("email (Name)"), `dc:creator`.
public typealias FeedPerson = RecordObject<PersonFields>

/// The rows of a person.
public struct PersonFields: RecordSchema {
  /// The person's name, trimmed; nil when the feed gives only an email or a URI.
  public let name = Field<String>("name")
  /// An email address, from Atom `email` or split out of `email (Name)` / `Name <email>`.
  public let email = Field<String>("email")
  /// The person's web page (Atom `uri`, JSON Feed `url`), resolved against the document's URL.
  public let uri = Field<String>("uri")
  /// The table's instance.
  public init() {}
}

extension RecordObject where Schema == PersonFields {
  /// A person; at least one part should be given, or writers leave the person out.
  public init(name: String? = nil, email: String? = nil, uri: String? = nil) {
    self.init()
    self.name = name
    self.email = email
    self.uri = uri
  }
}

/// An Atom `link`, or an RSS `link` as `alternate`.
public typealias FeedLink = RecordObject<LinkFields>

/// The rows of a link.
public struct LinkFields: RecordSchema {
  /// The link's target, resolved against `xml:base` and the document's URL.
  public let href = Field<String>("href")
  /// The relation (`alternate`, `self`, `enclosure`, `related`, `replies`, …); the parser fills
  /// in `alternate` when the feed gives none.
  public let rel = Field<String>("rel")
  /// The MIME type of the target; the XML parser defaults it to `text/html`
  /// (`application/atom+xml` for `self`), a JSON Feed link has none.
  public let type = Field<String>("type")
  /// A human-readable label the feed gives the link; nil when none.
  public let title = Field<String>("title")
  /// The target's size in bytes as the feed states it; nil when absent or not an integer.
  public let length = Field<Int64>("length")
  /// The table's instance.
  public init() {}
}

extension RecordObject where Schema == LinkFields {
  /// A link as read; no defaults are applied here.
  public init(
    href: String, rel: String? = nil, type: String? = nil, title: String? = nil,
    length: Int64? = nil
  ) {
    self.init()
    self.href = href
    self.rel = rel
    self.type = type
    self.title = title
    self.length = length
  }
}

/// An RSS `enclosure`, an Atom `rel="enclosure"` link, or a `media:content`.
public typealias FeedEnclosure = RecordObject<EnclosureFields>

/// The rows of an enclosure.
public struct EnclosureFields: RecordSchema {
  /// The media file's URL, resolved; the enclosure's identity (two enclosures with one URL are
  /// one).
  public let url = Field<String>("url")
  /// The MIME type (`audio/mpeg`); nil when the feed leaves it out, which is common.
  public let type = Field<String>("type")
  /// Size in bytes as the feed states it; nil when absent or not an integer (feeds write `0` or
  /// junk here often, so do not trust it for allocation).
  public let length = Field<Int64>("length")
  /// A JSON Feed attachment's own name for it, which a player may show.
  public let title = Field<String>("title")
  /// Seconds of audio or video, when the feed gives them as a number (JSON Feed attachments).
  public let duration = Field<Double>("duration")
  /// The table's instance.
  public init() {}
}

extension RecordObject where Schema == EnclosureFields {
  /// An enclosure; `title` and `duration` are set afterwards by the JSON Feed reader only.
  public init(url: String, type: String? = nil, length: Int64? = nil) {
    self.init()
    self.url = url
    self.type = type
    self.length = length
  }
}

/// A category with the vocabulary it comes from: Atom `scheme`/`label`, RSS `domain`,
/// `media:category`, `itunes:category` and keywords. Kept apart from the plain `categories` so
/// that a reader who only wants terms does not have to look through schemes.
public typealias FeedTag = RecordObject<TagFields>

/// The rows of a tag.
public struct TagFields: RecordSchema {
  /// The category itself, trimmed (Atom `term`, the element's text elsewhere).
  public let term = Field<String>("term")
  /// A URI naming the vocabulary (Atom `scheme`, RSS `domain`, `http://www.itunes.com/` for
  /// iTunes categories and keywords); nil when none.
  public let scheme = Field<String>("scheme")
  /// A human-readable name for the term (Atom `label`); nil when none.
  public let label = Field<String>("label")
  /// The table's instance.
  public init() {}
}

extension RecordObject where Schema == TagFields {
  /// A tag; the parser keeps each (term, scheme, label) once per record.
  public init(term: String, scheme: String? = nil, label: String? = nil) {
    self.init()
    self.term = term
    self.scheme = scheme
    self.label = label
  }
}

/// Where an item was first published (RSS `<source>`, Atom `<source>`): aggregated feeds name
/// the original, which a reader shows as the item's origin.
public typealias FeedOrigin = RecordObject<OriginFields>

/// The rows of an origin.
public struct OriginFields: RecordSchema {
  /// The original feed's title, trimmed.
  public let title = Field<String>("title")
  /// The original feed's URL: RSS `<source url>`, or the Atom `<source>`'s `rel="self"` link,
  /// else its alternate link.
  public let url = Field<String>("url")
  /// The table's instance.
  public init() {}
}

/// A `thr:in-reply-to` (RFC 4685): the entry a comment answers, so that threads can be rebuilt.
public typealias FeedReplyReference = RecordObject<ReplyFields>

/// The rows of a reply reference.
public struct ReplyFields: RecordSchema {
  /// The id of the entry answered (`ref`), as given.
  public let ref = Field<String>("ref")
  /// A URL where the answered entry can be read, resolved.
  public let href = Field<String>("href")
  /// The MIME type of `href`.
  public let type = Field<String>("type")
  /// The table's instance.
  public init() {}
}

/// A YouTube channel's or video's ids (the `yt:` namespace of YouTube's feeds), which a reader
/// needs to embed or link a video without scraping its page.
public typealias YouTubeInfo = RecordObject<YouTubeFields>

/// The rows of the `youtube` object.
public struct YouTubeFields: RecordSchema {
  /// The video's id (`yt:videoId`), on an entry.
  public let videoID = Field<String>("video_id")
  /// The channel's id (`yt:channelId`), on the feed and on each entry.
  public let channelID = Field<String>("channel_id")
  /// The table's instance.
  public init() {}
}

/// What a feed says about how often it changes: RSS `ttl`, `skipHours` and `skipDays`, and the
/// Syndication module's `updatePeriod`, `updateFrequency` and `updateBase`. A subscriber's
/// scheduler reads it to decide when to look again, so that a feed that asks to be left alone
/// at night, or updates daily, is not asked every few minutes.
public typealias FeedSchedule = RecordObject<ScheduleFields>

/// The rows of the `schedule` object.
public struct ScheduleFields: RecordSchema {
  /// Minutes the feed may be cached (RSS `ttl`).
  public let ttl = Field<Int>("ttl")
  /// Hours (0–23, GMT) in which the feed asks not to be read (RSS `skipHours`).
  public let skipHours = Field<[Int]>("skip_hours")
  /// English day names with a capital first letter (`Sunday`) on which the feed asks not to be
  /// read (RSS `skipDays`).
  public let skipDays = Field<[String]>("skip_days")
  /// `hourly`, `daily`, `weekly`, `monthly` or `yearly` (`sy:updatePeriod`).
  public let updatePeriod = Field<String>("update_period")
  /// Updates per period (`sy:updateFrequency`).
  public let updateFrequency = Field<Int>("update_frequency")
  /// The date the period counts from, as given (`sy:updateBase`).
  public let updateBase = Field<String>("update_base")
  /// The table's instance.
  public init() {}
}

extension RecordObject where Schema == ScheduleFields {
  /// A schedule as the feed gave it; all parts optional.
  public init(
    ttl: Int? = nil, skipHours: [Int] = [], skipDays: [String] = [], updatePeriod: String? = nil,
    updateFrequency: Int? = nil, updateBase: String? = nil
  ) {
    self.init()
    self.ttl = ttl
    self.skipHours = skipHours
    self.skipDays = skipDays
    self.updatePeriod = updatePeriod
    self.updateFrequency = updateFrequency
    self.updateBase = updateBase
  }
}

/// Podlove Simple Chapters (`psc:chapters`), the chapter marks a podcast gives inline in an
/// episode so that a player can jump to them.
public typealias PodloveChapters = RecordObject<ChaptersFields>

/// The rows of the `chapters` object.
public struct ChaptersFields: RecordSchema {
  /// The format's version the feed names (`psc:chapters version="1.2"`).
  public let version = Field<String>("version")
  /// The chapter marks in document order (players expect ascending start times; they are not
  /// sorted here).
  public let list = Field<[RecordObject<Chapter>]>("list")
  /// The table's instance.
  public init() {}

  /// The rows of one chapter mark.
  public struct Chapter: RecordSchema {
    /// Seconds from the start, with milliseconds; nil when the mark's time cannot be read.
    public let start = Field<Double>("start")
    /// The chapter's title, as a player lists it; nil when the mark has none.
    public let title = Field<String>("title")
    /// A URL about the chapter (a show note, a product), resolved.
    public let href = Field<String>("href")
    /// A URL of a picture for the chapter, resolved.
    public let image = Field<String>("image")
    /// The table's instance.
    public init() {}
  }
}

extension RecordObject where Schema == ChaptersFields {
  /// One chapter mark.
  public typealias Chapter = RecordObject<ChaptersFields.Chapter>
}
