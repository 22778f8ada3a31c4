/// Apple's podcast namespace (`itunes:`), on a channel or an episode. Podcast apps read these
/// fields before the core ones, so they are kept as the feed gave them, typed. One type serves
/// both levels: the channel-only fields (`owner`, `complete`, `type`, `newFeedURL`,
/// `categories`) stay nil on an episode, and the episode-only ones on a channel.
public struct ITunesInfo: Sendable, Equatable {
  /// `itunes:author`, the name a podcast app shows; it becomes an author of the record only when
  /// the feed names no other.
  public var author: String?
  /// The podcast's owner, whom directories contact (`itunes:owner`).
  public var owner: FeedPerson?
  /// A URL of the artwork (`itunes:image`'s `href`, else its `url`).
  public var image: String?
  /// True for yes/true/explicit, false for no/false/clean; nil for anything else.
  public var explicit: Bool?
  /// True when the podcast or episode asks to be hidden from Apple's directory (`yes`); false for
  /// `no`; nil otherwise.
  public var block: Bool?
  /// On a channel: true when no more episodes will come (`yes`); false for `no`; nil otherwise.
  public var complete: Bool?
  /// `episodic` or `serial`.
  public var type: String?
  /// On a channel: the URL the podcast has moved to (`itunes:new-feed-url`); a subscriber should
  /// switch to it.
  public var newFeedURL: String?
  /// Each category as its path from the top, `["Technology", "Gadgets"]`.
  public var categories: [[String]] = []
  /// `itunes:keywords` split on commas, trimmed, empty ones dropped.
  public var keywords: [String] = []
  /// `itunes:title`, the title without show or episode numbers; it stands in for a missing core
  /// title.
  public var title: String?
  /// `itunes:subtitle`, a short description; fills a missing description or summary when there
  /// is no `itunes:summary`.
  public var subtitle: String?
  /// `itunes:summary`, a longer description; fills a missing description or summary.
  public var summary: String?
  /// Seconds, from `HH:MM:SS`, `MM:SS` or plain seconds.
  public var duration: Int?
  /// The duration's text when it is none of those forms.
  public var durationRaw: String?
  /// On an episode: its number (`itunes:episode`); nil when absent or not an integer.
  public var episode: Int?
  /// On an episode: its season's number (`itunes:season`); nil when absent or not an integer.
  public var season: Int?
  /// `full`, `trailer` or `bonus`.
  public var episodeType: String?
  /// On an episode: the position it asks for in a list (`itunes:order`), overriding the date.
  public var order: Int?
  /// On an episode: true when it has closed captions (`yes`), false for `no`; nil otherwise.
  public var closedCaptioned: Bool?

  /// An empty object; the parser fills in what the feed gives.
  public init() {}

  /// True when the element gave nothing: writers leave the object out.
  public var isEmpty: Bool { self == ITunesInfo() }
}
