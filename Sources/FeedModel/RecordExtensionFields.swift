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
  public var contributors: [FeedPerson] = []
  /// Categories with their schemes and labels, when any has one (see `FeedTag`).
  public var tags: [FeedTag] = []
  public var itunes: ITunesInfo?
  public var podcast: PodcastInfo?
  public var media: MediaInfo?
  public var geo: GeoGeometry?
  public var youtube: YouTubeInfo?
  public var extensions: FeedExtensions = FeedExtensions()
  /// True when extension text past the bound per record was dropped.
  public var extensionsTruncated: Bool = false
  public init() {}
}

/// An item's newer fields: contributors, rights, origin, comments, tags and the namespaced
/// objects (`image` is stored in the item itself).
public struct FeedItemExtensionFields: Sendable, Equatable, BlankInitializable {
  public var contributors: [FeedPerson] = []
  public var rights: String?
  public var origin: FeedOrigin?
  /// The feed of the item's comments (wfw:commentRss, Atom `rel="replies"`).
  public var commentsFeed: String?
  public var commentsCount: Int?
  public var inReplyTo: [FeedReplyReference] = []
  /// Categories with their schemes and labels, when any has one (see `FeedTag`).
  public var tags: [FeedTag] = []
  public var itunes: ITunesInfo?
  public var podcast: PodcastInfo?
  public var media: MediaInfo?
  public var geo: GeoGeometry?
  public var chapters: PodloveChapters?
  public var youtube: YouTubeInfo?
  public var extensions: FeedExtensions = FeedExtensions()
  /// True when extension text past the bound per record was dropped.
  public var extensionsTruncated: Bool = false
  public init() {}
}

extension FeedChannel {
  /// Who publishes the feed: RSS `webMaster`, `dc:publisher`, `itunes:owner`.
  public var publisher: FeedPerson? {
    _read { yield extensionFields.value.publisher }
    set { extensionFields.value.publisher = newValue }
    _modify { yield &extensionFields.value.publisher }
  }
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
  public var itunes: ITunesInfo? {
    _read { yield extensionFields.value.itunes }
    set { extensionFields.value.itunes = newValue }
    _modify { yield &extensionFields.value.itunes }
  }
  public var podcast: PodcastInfo? {
    _read { yield extensionFields.value.podcast }
    set { extensionFields.value.podcast = newValue }
    _modify { yield &extensionFields.value.podcast }
  }
  public var media: MediaInfo? {
    _read { yield extensionFields.value.media }
    set { extensionFields.value.media = newValue }
    _modify { yield &extensionFields.value.media }
  }
  public var geo: GeoGeometry? {
    _read { yield extensionFields.value.geo }
    set { extensionFields.value.geo = newValue }
    _modify { yield &extensionFields.value.geo }
  }
  public var youtube: YouTubeInfo? {
    _read { yield extensionFields.value.youtube }
    set { extensionFields.value.youtube = newValue }
    _modify { yield &extensionFields.value.youtube }
  }
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
  public var contributors: [FeedPerson] {
    _read { yield extensionFields.value.contributors }
    set { extensionFields.value.contributors = newValue }
    _modify { yield &extensionFields.value.contributors }
  }
  public var rights: String? {
    _read { yield extensionFields.value.rights }
    set { extensionFields.value.rights = newValue }
    _modify { yield &extensionFields.value.rights }
  }
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
  public var commentsCount: Int? {
    _read { yield extensionFields.value.commentsCount }
    set { extensionFields.value.commentsCount = newValue }
    _modify { yield &extensionFields.value.commentsCount }
  }
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
  public var itunes: ITunesInfo? {
    _read { yield extensionFields.value.itunes }
    set { extensionFields.value.itunes = newValue }
    _modify { yield &extensionFields.value.itunes }
  }
  public var podcast: PodcastInfo? {
    _read { yield extensionFields.value.podcast }
    set { extensionFields.value.podcast = newValue }
    _modify { yield &extensionFields.value.podcast }
  }
  public var media: MediaInfo? {
    _read { yield extensionFields.value.media }
    set { extensionFields.value.media = newValue }
    _modify { yield &extensionFields.value.media }
  }
  public var geo: GeoGeometry? {
    _read { yield extensionFields.value.geo }
    set { extensionFields.value.geo = newValue }
    _modify { yield &extensionFields.value.geo }
  }
  public var chapters: PodloveChapters? {
    _read { yield extensionFields.value.chapters }
    set { extensionFields.value.chapters = newValue }
    _modify { yield &extensionFields.value.chapters }
  }
  public var youtube: YouTubeInfo? {
    _read { yield extensionFields.value.youtube }
    set { extensionFields.value.youtube = newValue }
    _modify { yield &extensionFields.value.youtube }
  }
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
