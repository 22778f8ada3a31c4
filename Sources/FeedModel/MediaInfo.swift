/// Media RSS (`media:`), on an item or a channel, with a `media:group`'s parts and a
/// `media:content`'s own children merged in: video and photo feeds (YouTube, Flickr, news
/// agencies) put everything a player needs here rather than in `enclosure`.
public struct MediaInfo: Sendable, Equatable {
  /// One rendition of the media object (`media:content`).
  public struct Content: Sendable, Equatable {
    /// The rendition's URL, resolved; nil for a `media:content` that only carries a player.
    public var url: String?
    /// Its MIME type (`video/mp4`).
    public var type: String?
    /// `image`, `audio`, `video`, `document` or `executable`.
    public var medium: String?
    /// True when the feed marks this rendition as the default of its group (`isDefault`).
    public var isDefault: Bool?
    /// `sample`, `full` or `nonstop`.
    public var expression: String?
    /// Kilobits a second.
    public var bitrate: Double?
    /// Frames a second.
    public var framerate: Double?
    /// Kilohertz.
    public var samplingRate: Double?
    /// Audio channels (2 for stereo).
    public var channels: Int?
    /// Seconds.
    public var duration: Double?
    /// Width in pixels (video, image); nil when not given.
    public var width: Int?
    /// Height in pixels (video, image); nil when not given.
    public var height: Int?
    /// The language of the rendition (RFC 5646 tag).
    public var lang: String?
    /// Bytes (`fileSize`); nil when absent or not an integer.
    public var fileSize: Int64?
    /// A rendition at `url`; the rest is filled in from its attributes.
    public init(url: String? = nil) { self.url = url }
  }

  /// A preview image; `time` is the offset in the media it shows, as written (NTP time).
  public struct Thumbnail: Sendable, Equatable {
    /// The image's URL, resolved.
    public var url: String
    /// Width in pixels; nil when not given.
    public var width: Int?
    /// Height in pixels; nil when not given.
    public var height: Int?
    /// The offset in the media the image shows, as written (`12:05:01.123`), not parsed.
    public var time: String?
    /// A thumbnail at `url`.
    public init(url: String) { self.url = url }
  }

  /// Someone who took part (`media:credit`); the scheme defaults to `urn:ebu`.
  public struct Credit: Sendable, Equatable {
    /// The person's or organisation's name, trimmed.
    public var name: String
    /// What they did (`director`, `producer`), in the scheme's vocabulary.
    public var role: String?
    /// The vocabulary of `role`; the parser fills in `urn:ebu` when the feed names none.
    public var scheme: String?
    /// A credit as given.
    public init(name: String, role: String? = nil, scheme: String? = nil) {
      self.name = name
      self.role = role
      self.scheme = scheme
    }
  }

  /// Where the media plays in a browser (`media:player`).
  public struct Player: Sendable, Equatable {
    /// The player's page or embed URL, resolved.
    public var url: String
    /// Pixels the player wants.
    public var width: Int?
    /// Pixels the player wants.
    public var height: Int?
    /// A player at `url`.
    public init(url: String) { self.url = url }
  }

  /// An audience rating (`media:rating`), e.g. `adult` in `urn:simple`.
  public struct Rating: Sendable, Equatable {
    /// The rating in the scheme's vocabulary (`adult`, `nonadult`, `r`).
    public var value: String
    /// The rating system (`urn:mpaa`, `urn:v-chip`); the parser fills in `urn:simple` when the
    /// feed names none.
    public var scheme: String?
    /// A rating as given.
    public init(value: String, scheme: String? = nil) {
      self.value = value
      self.scheme = scheme
    }
  }

  /// Where the media may be shown (`media:restriction`): country codes, URIs or sharing.
  public struct Restriction: Sendable, Equatable {
    /// Space-separated country codes or URIs, or `all` / `none`; as written.
    public var value: String?
    /// `allow` or `deny`.
    public var relationship: String?
    /// `country`, `uri` or `sharing`.
    public var type: String?
    /// A restriction with its value; the attributes are set after.
    public init(value: String? = nil) { self.value = value }
  }

  /// The licence the media is under (`media:license`).
  public struct License: Sendable, Equatable {
    /// The licence's URL (`href`), resolved.
    public var url: String?
    /// The MIME type of the licence's page.
    public var type: String?
    /// The licence's name as text (`Creative Commons Attribution 3.0`).
    public var text: String?
    /// A licence at `url`.
    public init(url: String? = nil) { self.url = url }
  }

  /// Star rating, views, favourites and tags a community gave (`media:community`).
  public struct Community: Sendable, Equatable {
    /// `media:starRating`.
    public struct StarRating: Sendable, Equatable {
      /// The mean of the ratings, on the scale from `min` to `max`.
      public var average: Double?
      /// How many ratings the mean is of.
      public var count: Int?
      /// The lowest rating the scale allows.
      public var min: Double?
      /// The highest rating the scale allows.
      public var max: Double?
      /// No rating parts yet.
      public init() {}
    }
    /// The star rating; nil when none was given.
    public var starRating: StarRating?
    /// Times the media was viewed (`media:statistics views`).
    public var views: Int?
    /// Times it was marked a favourite (`media:statistics favorites`).
    public var favorites: Int?
    /// The community's tags (`media:tags`), split on commas and trimmed, as written.
    public var tags: [String] = []
    /// No community data yet.
    public init() {}
  }

  /// Every `media:content` in document order: the renditions of the media object.
  public var contents: [Content] = []
  /// Preview images in document order.
  public var thumbnails: [Thumbnail] = []
  /// `media:title`; fills the item's title when it has none.
  public var title: String?
  /// `text/plain` or `text/html` (the feed's `plain` / `html`); nil only when there is no title.
  public var titleType: String?
  /// `media:description`; fills the item's summary when it has none.
  public var description: String?
  /// `text/plain` or `text/html`; nil only when there is no description.
  public var descriptionType: String?
  /// `media:keywords`, split on commas and trimmed, each once.
  public var keywords: [String] = []
  /// Categories with their scheme (default `http://search.yahoo.com/mrss/category_schema`).
  public var categories: [FeedTag] = []
  /// Who took part, in document order.
  public var credits: [Credit] = []
  /// How to play the media in a browser; the first `media:player` only.
  public var player: Player?
  /// The audience rating; the first given.
  public var rating: Rating?
  /// Where the media may be shown; the first given.
  public var restriction: Restriction?
  /// `media:copyright`, the copyright statement as text.
  public var copyright: String?
  /// The licence; the first given.
  public var license: License?
  /// Ratings, views and tags from the media's community; nil when none.
  public var community: Community?

  /// An empty object; the parser fills in what the feed gives.
  public init() {}

  /// True when nothing was given: writers leave the object out.
  public var isEmpty: Bool { self == MediaInfo() }
}
