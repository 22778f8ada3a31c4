/// Apple's podcast namespace (`itunes:`), on a channel or an episode. Podcast apps read these
/// fields before the core ones, so they are kept as the feed gave them, typed. One table serves
/// both levels: the channel-only fields (`owner`, `complete`, `type`, `newFeedURL`,
/// `categories`) stay empty on an episode, and the episode-only ones on a channel.
public typealias ITunesInfo = RecordObject<ITunesFields>

/// The rows of the `itunes` object.
public struct ITunesFields: RecordSchema {
  /// `itunes:author`, the name a podcast app shows; it becomes an author of the record only when
  /// the feed names no other.
  public let author = Field<String>("author")
  /// The podcast's owner, whom directories contact (`itunes:owner`).
  public let owner = Field<RecordObject<Owner>>("owner")
  /// A URL of the artwork (`itunes:image`'s `href`, else its `url`).
  public let image = Field<String>("image")
  /// True for yes/true/explicit, false for no/false/clean; nil for anything else.
  public let explicit = Field<Bool>("explicit")
  /// True when the podcast or episode asks to be hidden from Apple's directory (`yes`); false for
  /// `no`; nil otherwise.
  public let block = Field<Bool>("block")
  /// On a channel: true when no more episodes will come (`yes`); false for `no`; nil otherwise.
  public let complete = Field<Bool>("complete")
  /// `episodic` or `serial`.
  public let type = Field<String>("type")
  /// On a channel: the URL the podcast has moved to (`itunes:new-feed-url`); a subscriber should
  /// switch to it.
  public let newFeedURL = Field<String>("new_feed_url")
  /// Each category as its path from the top, `["Technology", "Gadgets"]`.
  public let categories = Field<[[String]]>("categories")
  /// `itunes:keywords` split on commas, trimmed, empty ones dropped.
  public let keywords = Field<[String]>("keywords")
  /// `itunes:title`, the title without show or episode numbers; it stands in for a missing core
  /// title.
  public let title = Field<String>("title")
  /// `itunes:subtitle`, a short description; fills a missing description or summary when there
  /// is no `itunes:summary`.
  public let subtitle = Field<String>("subtitle")
  /// `itunes:summary`, a longer description; fills a missing description or summary.
  public let summary = Field<String>("summary")
  /// Seconds, from `HH:MM:SS`, `MM:SS` or plain seconds.
  public let duration = Field<Int>("duration")
  /// The duration's text when it is none of those forms.
  public let durationRaw = Field<String>("duration_raw")
  /// On an episode: its number (`itunes:episode`); nil when absent or not an integer.
  public let episode = Field<Int>("episode")
  /// On an episode: its season's number (`itunes:season`); nil when absent or not an integer.
  public let season = Field<Int>("season")
  /// `full`, `trailer` or `bonus`.
  public let episodeType = Field<String>("episode_type")
  /// On an episode: the position it asks for in a list (`itunes:order`), overriding the date.
  public let order = Field<Int>("order")
  /// On an episode: true when it has closed captions (`yes`), false for `no`; nil otherwise.
  public let closedCaptioned = Field<Bool>("closed_captioned")

  /// The table's instance.
  public init() {}

  /// `itunes:owner`: a name and an email address.
  public struct Owner: RecordSchema {
    /// `itunes:name`.
    public let name = Field<String>("name")
    /// `itunes:email`.
    public let email = Field<String>("email")
    /// The table's instance.
    public init() {}
  }
}

extension RecordObject where Schema == ITunesFields {
  /// `itunes:owner`.
  public typealias Owner = RecordObject<ITunesFields.Owner>
}
