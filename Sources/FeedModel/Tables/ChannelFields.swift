/// The rows of a `feed` record after `type`, `source`, `url` and `version`: the channel (RSS)
/// or feed (Atom) element's own fields (docs/format.md, "feed"), declared once like
/// `ItemFields`'.
public struct ChannelFields: RecordSchema {
  /// Atom `id`, kept exactly as given, never resolved; nil for RSS and JSON Feed.
  public let id = Field<String>("id")
  /// The feed's title, trimmed; nil when it has none.
  public let title = Field<String>("title")
  /// What kind of text `title` is: `text/plain`, `text/html`, `application/xhtml+xml` or another
  /// MIME type; nil only when there is no title.
  public let titleType = Field<String>("title_type", .typeOfPrevious)
  /// The site's page the feed belongs to: the last alternate HTML link, resolved.
  public let link = Field<String>("link")
  /// The feed's own URL, when the feed names it (`atom:link rel="self"`).
  public let selfLink = Field<String>("self")
  /// RSS `description`, Atom `subtitle` (0.3 `tagline`), JSON Feed `description`; any HTML in
  /// it is kept as the feed wrote it.
  public let description = Field<String>("description")
  /// A language tag (`en-GB`): `language`, `dc:language`, else the root's `xml:lang`.
  public let language = Field<String>("language")
  /// When the feed last changed: Atom `updated`, RSS `lastBuildDate`, `dc:date`.
  public let updated = Field<FeedDate>("updated")
  /// When the feed was published: RSS `pubDate`, `dcterms:issued`.
  public let published = Field<FeedDate>("published")
  /// The software that wrote the feed, as text.
  public let generator = Field<String>("generator")
  /// A URL of the feed's picture: RSS `image/url`, Atom `logo`, `itunes:image`, JSON Feed `icon`.
  public let image = Field<String>("image")
  /// A URL of a small square icon: Atom `icon`, JSON Feed `favicon`.
  public let icon = Field<String>("icon")
  /// The copyright statement: `rights`, `copyright`, `dc:rights`.
  public let rights = Field<String>("rights")
  /// The feed's authors in document order; empty when it names none.
  public let authors = Field<[FeedPerson]>("authors")
  /// Plain category terms (`category`, Atom `term`, `dc:subject`); schemes and labels are in
  /// `tags`.
  public let categories = Field<[String]>("categories")
  /// Who publishes the feed: RSS `webMaster`, `dc:publisher`, `itunes:owner`.
  public let publisher = Field<FeedPerson>("publisher")
  /// Others who contributed to the feed: Atom `contributor`, `dc:contributor`.
  public let contributors = Field<[FeedPerson]>("contributors")
  /// WebSub hubs that push the feed's updates (`link rel="hub"`, JSON Feed `hubs`).
  public let hubs = Field<[String]>("hubs")
  /// How often the feed says it changes; nil when it says nothing.
  public let schedule = Field<FeedSchedule>("schedule")
  /// Categories with their schemes and labels, when any has one (see `TagFields`).
  public let tags = Field<[FeedTag]>("tags")
  /// The channel's iTunes fields; nil when the feed has no `itunes:` element.
  public let itunes = Field<ITunesInfo>("itunes")
  /// The channel's Podcasting 2.0 fields; nil when the feed has no `podcast:` element.
  public let podcast = Field<PodcastInfo>("podcast")
  /// Media RSS elements given at the channel level; nil when none.
  public let media = Field<MediaInfo>("media")
  /// Where the feed as a whole is about (GeoRSS, W3C geo); nil when it says nothing.
  public let geo = Field<GeoGeometry>("geo")
  /// The YouTube channel's id, for a YouTube feed; nil otherwise.
  public let youtube = Field<YouTubeInfo>("youtube")
  /// Elements of namespaces no field maps, kept whole (see `FeedExtensions`); nil when none.
  public let extensions = Field<FeedExtensions>("extensions")
  /// True when extension text past the bound per record was dropped.
  public let extensionsTruncated = Field<Bool>("extensions_truncated", .onlyWhenTrue)
  /// True when a JSON Feed says it will never update again: a reader can stop pulling it.
  public let expired = Field<Bool>("expired", .onlyWhenTrue)

  /// The table's instance.
  public init() {}
}
