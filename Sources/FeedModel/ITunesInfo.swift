/// Apple's podcast namespace (`itunes:`), on a channel or an episode. Podcast apps read these
/// fields before the core ones, so they are kept as the feed gave them, typed. One type serves
/// both levels: the channel-only fields (`owner`, `complete`, `type`, `newFeedURL`,
/// `categories`) stay nil on an episode, and the episode-only ones on a channel.
public struct ITunesInfo: Sendable, Equatable {
  public var author: String?
  /// The podcast's owner, whom directories contact (`itunes:owner`).
  public var owner: FeedPerson?
  public var image: String?
  /// True for yes/true/explicit, false for no/false/clean; nil for anything else.
  public var explicit: Bool?
  public var block: Bool?
  public var complete: Bool?
  /// `episodic` or `serial`.
  public var type: String?
  public var newFeedURL: String?
  /// Each category as its path from the top, `["Technology", "Gadgets"]`.
  public var categories: [[String]] = []
  public var keywords: [String] = []
  public var title: String?
  public var subtitle: String?
  public var summary: String?
  /// Seconds, from `HH:MM:SS`, `MM:SS` or plain seconds.
  public var duration: Int?
  /// The duration's text when it is none of those forms.
  public var durationRaw: String?
  public var episode: Int?
  public var season: Int?
  /// `full`, `trailer` or `bonus`.
  public var episodeType: String?
  public var order: Int?
  public var closedCaptioned: Bool?

  public init() {}

  /// True when the element gave nothing: writers leave the object out.
  public var isEmpty: Bool { self == ITunesInfo() }
}
