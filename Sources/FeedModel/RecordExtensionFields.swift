/// The fields that the namespaces and the newer core fields added to the channel and the item,
/// kept out of line: most records have none of them, and a record is copied a few times on its
/// way to the output. Inline, the namespaced objects made an item six times larger, and a plain
/// RSS 2.0 feed needed 4.6% more instructions than before them; out of line (with an item's
/// fields read into a reused buffer), 2.9% (callgrind, 5 MB). An item without them carries one
/// nil reference.

/// A channel's newer fields: publisher, contributors, tags and the namespaced objects (`hubs`
/// is stored in the channel itself).
public struct FeedChannelExtensionFields: Sendable, Equatable, BlankInitializable {
  /// Who publishes the feed: RSS `webMaster`, `dc:publisher`, `itunes:owner`.
  public var publisher: FeedPerson?
  /// Others who contributed to the feed: Atom `contributor`, `dc:contributor`.
  public var contributors: [FeedPerson] = []
  /// Categories with their schemes and labels, when any has one (see `FeedTag`).
  public var tags: [FeedTag] = []
  /// The channel's iTunes fields; nil when the feed has no `itunes:` element.
  public var itunes: ITunesInfo?
  /// The channel's Podcasting 2.0 fields; nil when the feed has no `podcast:` element.
  public var podcast: PodcastInfo?
  /// Media RSS elements given at the channel level; nil when none.
  public var media: MediaInfo?
  /// Where the feed as a whole is about (GeoRSS, W3C geo); nil when it says nothing.
  public var geo: GeoGeometry?
  /// The YouTube channel's id, for a YouTube feed; nil otherwise.
  public var youtube: YouTubeInfo?
  /// Elements of namespaces no field maps, kept whole (see `FeedExtensions`); empty when none.
  public var extensions: FeedExtensions = FeedExtensions()
  /// True when extension text past the bound per record was dropped.
  public var extensionsTruncated: Bool = false
  /// No extension fields: the blank value, which `OutOfLine` stores as a nil reference.
  public init() {}
}

/// An item's newer fields: contributors, rights, origin, comments, tags and the namespaced
/// objects (`image` is stored in the item itself).
public struct FeedItemExtensionFields: Sendable, Equatable, BlankInitializable {
  /// Others who contributed to the item: Atom `contributor`, `dc:contributor`.
  public var contributors: [FeedPerson] = []
  /// The item's own copyright statement (`rights`, `dc:rights`); nil when it has none of its own.
  public var rights: String?
  /// The feed the item was first published in, for aggregated feeds; nil when not named.
  public var origin: FeedOrigin?
  /// The feed of the item's comments (wfw:commentRss, Atom `rel="replies"`).
  public var commentsFeed: String?
  /// How many comments the item has (`slash:comments`, `thr:total`); nil when absent or not an integer.
  public var commentsCount: Int?
  /// The entries this item answers (`thr:in-reply-to`), for rebuilding threads.
  public var inReplyTo: [FeedReplyReference] = []
  /// Categories with their schemes and labels, when any has one (see `FeedTag`).
  public var tags: [FeedTag] = []
  /// The episode's iTunes fields; nil when the item has no `itunes:` element.
  public var itunes: ITunesInfo?
  /// The episode's Podcasting 2.0 fields; nil when the item has no `podcast:` element.
  public var podcast: PodcastInfo?
  /// The item's Media RSS, `media:group` parts merged in; nil when none.
  public var media: MediaInfo?
  /// Where the item is about (GeoRSS, W3C geo); nil when it says nothing.
  public var geo: GeoGeometry?
  /// Chapter marks given inline (Podlove Simple Chapters); nil when none.
  public var chapters: PodloveChapters?
  /// The video's and its channel's ids, for a YouTube feed; nil otherwise.
  public var youtube: YouTubeInfo?
  /// Elements of namespaces no field maps, kept whole (see `FeedExtensions`); empty when none.
  public var extensions: FeedExtensions = FeedExtensions()
  /// True when extension text past the bound per record was dropped.
  public var extensionsTruncated: Bool = false
  /// No extension fields: the blank value, which `OutOfLine` stores as a nil reference.
  public init() {}
}

extension FeedChannel {
  /// Who publishes the feed: RSS `webMaster`, `dc:publisher`, `itunes:owner`.
  public var publisher: FeedPerson? {
    _read { yield extensionFields.value.publisher }
    set { extensionFields.value.publisher = newValue }
    _modify { yield &extensionFields.value.publisher }
  }
  /// Others who contributed to the feed: Atom `contributor`, `dc:contributor`.
  public var contributors: [FeedPerson] {
    _read { yield extensionFields.value.contributors }
    set { extensionFields.value.contributors = newValue }
    _modify { yield &extensionFields.value.contributors }
  }
  /// Categories with their schemes and labels, when any has one (see `FeedTag`).
  public var tags: [FeedTag] {
    _read { yield extensionFields.value.tags }
    set { extensionFields.value.tags = newValue }
    _modify { yield &extensionFields.value.tags }
  }
  /// The channel's iTunes fields; nil when the feed has no `itunes:` element.
  public var itunes: ITunesInfo? {
    _read { yield extensionFields.value.itunes }
    set { extensionFields.value.itunes = newValue }
    _modify { yield &extensionFields.value.itunes }
  }
  /// The channel's Podcasting 2.0 fields; nil when the feed has no `podcast:` element.
  public var podcast: PodcastInfo? {
    _read { yield extensionFields.value.podcast }
    set { extensionFields.value.podcast = newValue }
    _modify { yield &extensionFields.value.podcast }
  }
  /// Media RSS elements given at the channel level; nil when none.
  public var media: MediaInfo? {
    _read { yield extensionFields.value.media }
    set { extensionFields.value.media = newValue }
    _modify { yield &extensionFields.value.media }
  }
  /// Where the feed as a whole is about (GeoRSS, W3C geo); nil when it says nothing.
  public var geo: GeoGeometry? {
    _read { yield extensionFields.value.geo }
    set { extensionFields.value.geo = newValue }
    _modify { yield &extensionFields.value.geo }
  }
  /// The YouTube channel's id, for a YouTube feed; nil otherwise.
  public var youtube: YouTubeInfo? {
    _read { yield extensionFields.value.youtube }
    set { extensionFields.value.youtube = newValue }
    _modify { yield &extensionFields.value.youtube }
  }
  /// Elements of namespaces no field maps, kept whole (see `FeedExtensions`); empty when none.
  public var extensions: FeedExtensions {
    _read { yield extensionFields.value.extensions }
    set { extensionFields.value.extensions = newValue }
    _modify { yield &extensionFields.value.extensions }
  }
  /// True when extension text past the bound per record was dropped.
  public var extensionsTruncated: Bool {
    _read { yield extensionFields.value.extensionsTruncated }
    set { extensionFields.value.extensionsTruncated = newValue }
    _modify { yield &extensionFields.value.extensionsTruncated }
  }
}

extension FeedItem {
  /// Others who contributed to the item: Atom `contributor`, `dc:contributor`.
  public var contributors: [FeedPerson] {
    _read { yield extensionFields.value.contributors }
    set { extensionFields.value.contributors = newValue }
    _modify { yield &extensionFields.value.contributors }
  }
  /// The item's own copyright statement (`rights`, `dc:rights`); nil when it has none of its own.
  public var rights: String? {
    _read { yield extensionFields.value.rights }
    set { extensionFields.value.rights = newValue }
    _modify { yield &extensionFields.value.rights }
  }
  /// The feed the item was first published in, for aggregated feeds; nil when not named.
  public var origin: FeedOrigin? {
    _read { yield extensionFields.value.origin }
    set { extensionFields.value.origin = newValue }
    _modify { yield &extensionFields.value.origin }
  }
  /// The feed of the item's comments (wfw:commentRss, Atom `rel="replies"`).
  public var commentsFeed: String? {
    _read { yield extensionFields.value.commentsFeed }
    set { extensionFields.value.commentsFeed = newValue }
    _modify { yield &extensionFields.value.commentsFeed }
  }
  /// How many comments the item has (`slash:comments`, `thr:total`); nil when absent or not an integer.
  public var commentsCount: Int? {
    _read { yield extensionFields.value.commentsCount }
    set { extensionFields.value.commentsCount = newValue }
    _modify { yield &extensionFields.value.commentsCount }
  }
  /// The entries this item answers (`thr:in-reply-to`), for rebuilding threads.
  public var inReplyTo: [FeedReplyReference] {
    _read { yield extensionFields.value.inReplyTo }
    set { extensionFields.value.inReplyTo = newValue }
    _modify { yield &extensionFields.value.inReplyTo }
  }
  /// Categories with their schemes and labels, when any has one (see `FeedTag`).
  public var tags: [FeedTag] {
    _read { yield extensionFields.value.tags }
    set { extensionFields.value.tags = newValue }
    _modify { yield &extensionFields.value.tags }
  }
  /// The episode's iTunes fields; nil when the item has no `itunes:` element.
  public var itunes: ITunesInfo? {
    _read { yield extensionFields.value.itunes }
    set { extensionFields.value.itunes = newValue }
    _modify { yield &extensionFields.value.itunes }
  }
  /// The episode's Podcasting 2.0 fields; nil when the item has no `podcast:` element.
  public var podcast: PodcastInfo? {
    _read { yield extensionFields.value.podcast }
    set { extensionFields.value.podcast = newValue }
    _modify { yield &extensionFields.value.podcast }
  }
  /// The item's Media RSS, `media:group` parts merged in; nil when none.
  public var media: MediaInfo? {
    _read { yield extensionFields.value.media }
    set { extensionFields.value.media = newValue }
    _modify { yield &extensionFields.value.media }
  }
  /// Where the item is about (GeoRSS, W3C geo); nil when it says nothing.
  public var geo: GeoGeometry? {
    _read { yield extensionFields.value.geo }
    set { extensionFields.value.geo = newValue }
    _modify { yield &extensionFields.value.geo }
  }
  /// Chapter marks given inline (Podlove Simple Chapters); nil when none.
  public var chapters: PodloveChapters? {
    _read { yield extensionFields.value.chapters }
    set { extensionFields.value.chapters = newValue }
    _modify { yield &extensionFields.value.chapters }
  }
  /// The video's and its channel's ids, for a YouTube feed; nil otherwise.
  public var youtube: YouTubeInfo? {
    _read { yield extensionFields.value.youtube }
    set { extensionFields.value.youtube = newValue }
    _modify { yield &extensionFields.value.youtube }
  }
  /// Elements of namespaces no field maps, kept whole (see `FeedExtensions`); empty when none.
  public var extensions: FeedExtensions {
    _read { yield extensionFields.value.extensions }
    set { extensionFields.value.extensions = newValue }
    _modify { yield &extensionFields.value.extensions }
  }
  /// True when extension text past the bound per record was dropped.
  public var extensionsTruncated: Bool {
    _read { yield extensionFields.value.extensionsTruncated }
    set { extensionFields.value.extensionsTruncated = newValue }
    _modify { yield &extensionFields.value.extensionsTruncated }
  }
}
