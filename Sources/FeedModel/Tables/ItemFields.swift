/// The rows of an `item` record after `type`, `source`, `index` and `status`: one RSS `item`
/// or Atom `entry` (docs/format.md, "item"). Each row is a field, declared once: the parser
/// fills it, the JSON Lines writer writes it in this order, and `FeedItem` reads it by name
/// (`item.title`).
public struct ItemFields: RecordSchema {
  /// RSS `guid`, Atom `id`, RSS 1.0 `rdf:about`, JSON Feed `id`: kept exactly as given, never
  /// resolved; what subscriptions identify the item by first.
  public let id = Field<String>("id")
  /// The item's title, trimmed; nil when it has none (common in RSS).
  public let title = Field<String>("title")
  /// What kind of text `title` is (`text/plain`, `text/html`, …); nil only when there is no title.
  public let titleType = Field<String>("title_type", .typeOfPrevious)
  /// The item's page: its last alternate HTML link, else (RSS) a guid that is a URL and a
  /// permalink.
  public let link = Field<String>("link")
  /// Every link of the item in document order, the RSS `link` as `alternate` among them.
  public let links = Field<[FeedLink]>("links")
  /// RSS `description`, Atom `summary`, JSON Feed `summary`: text as the feed gives it, HTML not
  /// stripped (see `summaryType`).
  public let summary = Field<String>("summary")
  /// What kind of text `summary` is; nil only when there is no summary.
  public let summaryType = Field<String>("summary_type", .typeOfPrevious)
  /// `content:encoded`, Atom `content`, JSON Feed `content_html`/`content_text`: the full text,
  /// HTML not stripped (see `contentType`).
  public let content = Field<String>("content")
  /// What kind of text `content` is; nil only when there is no content.
  public let contentType = Field<String>("content_type", .typeOfPrevious)
  /// When the item was published: RSS `pubDate`, Atom `published`, `dc:date`.
  public let published = Field<FeedDate>("published")
  /// When the item last changed: Atom `updated`, `dcterms:modified`.
  public let updated = Field<FeedDate>("updated")
  /// The item's authors in document order; an item does not inherit the feed's.
  public let authors = Field<[FeedPerson]>("authors")
  /// Plain category terms; schemes and labels are in `tags`.
  public let categories = Field<[String]>("categories")
  /// Media files attached to the item, each URL once, in document order.
  public let enclosures = Field<[FeedEnclosure]>("enclosures")
  /// A URL of the item's comments page (RSS `comments`).
  public let comments = Field<String>("comments")
  /// Others who contributed to the item: Atom `contributor`, `dc:contributor`.
  public let contributors = Field<[FeedPerson]>("contributors")
  /// The item's own copyright statement (`rights`, `dc:rights`); nil when it has none of its own.
  public let rights = Field<String>("rights")
  /// The item's own picture: itunes:image, else the first media:thumbnail (JSON Feed `image`).
  public let image = Field<String>("image")
  /// The feed the item was first published in, for aggregated feeds; nil when not named.
  public let origin = Field<FeedOrigin>("origin")
  /// The feed of the item's comments (wfw:commentRss, Atom `rel="replies"`).
  public let commentsFeed = Field<String>("comments_feed")
  /// How many comments the item has (`slash:comments`, `thr:total`); nil when absent or not an
  /// integer.
  public let commentsCount = Field<Int>("comments_count")
  /// The entries this item answers (`thr:in-reply-to`), for rebuilding threads.
  public let inReplyTo = Field<[FeedReplyReference]>("in_reply_to")
  /// Categories with their schemes and labels, when any has one (see `TagFields`).
  public let tags = Field<[FeedTag]>("tags")
  /// The episode's iTunes fields; nil when the item has no `itunes:` element.
  public let itunes = Field<ITunesInfo>("itunes")
  /// The episode's Podcasting 2.0 fields; nil when the item has no `podcast:` element.
  public let podcast = Field<PodcastInfo>("podcast")
  /// The item's Media RSS, `media:group` parts merged in; nil when none.
  public let media = Field<MediaInfo>("media")
  /// Where the item is about (GeoRSS, W3C geo); nil when it says nothing.
  public let geo = Field<GeoGeometry>("geo")
  /// Chapter marks given inline (Podlove Simple Chapters); nil when none.
  public let chapters = Field<PodloveChapters>("chapters")
  /// The video's and its channel's ids, for a YouTube feed; nil otherwise.
  public let youtube = Field<YouTubeInfo>("youtube")
  /// Elements of namespaces no field maps, kept whole (see `FeedExtensions`); nil when none.
  public let extensions = Field<FeedExtensions>("extensions")
  /// True when extension text past the bound per record was dropped.
  public let extensionsTruncated = Field<Bool>("extensions_truncated", .onlyWhenTrue)
  /// The item's language when it differs from the feed's (JSON Feed 1.1 items carry one).
  public let language = Field<String>("language")

  /// The table's instance.
  public init() {}
}
