/// Media RSS (`media:`), on an item or a channel, with a `media:group`'s parts and a
/// `media:content`'s own children merged in: video and photo feeds (YouTube, Flickr, news
/// agencies) put everything a player needs here rather than in `enclosure`.
public struct MediaInfo: Sendable, Equatable {
  /// One rendition of the media object (`media:content`).
  public struct Content: Sendable, Equatable {
    public var url: String?
    public var type: String?
    /// `image`, `audio`, `video`, `document` or `executable`.
    public var medium: String?
    public var isDefault: Bool?
    /// `sample`, `full` or `nonstop`.
    public var expression: String?
    /// Kilobits a second.
    public var bitrate: Double?
    public var framerate: Double?
    /// Kilohertz.
    public var samplingRate: Double?
    public var channels: Int?
    /// Seconds.
    public var duration: Double?
    public var width: Int?
    public var height: Int?
    public var lang: String?
    public var fileSize: Int64?
    public init(url: String? = nil) { self.url = url }
  }

  /// A preview image; `time` is the offset in the media it shows, as written (NTP time).
  public struct Thumbnail: Sendable, Equatable {
    public var url: String
    public var width: Int?
    public var height: Int?
    public var time: String?
    public init(url: String) { self.url = url }
  }

  /// Someone who took part (`media:credit`); the scheme defaults to `urn:ebu`.
  public struct Credit: Sendable, Equatable {
    public var name: String
    public var role: String?
    public var scheme: String?
    public init(name: String, role: String? = nil, scheme: String? = nil) {
      self.name = name
      self.role = role
      self.scheme = scheme
    }
  }

  /// Where the media plays in a browser (`media:player`).
  public struct Player: Sendable, Equatable {
    public var url: String
    public var width: Int?
    public var height: Int?
    public init(url: String) { self.url = url }
  }

  /// An audience rating (`media:rating`), e.g. `adult` in `urn:simple`.
  public struct Rating: Sendable, Equatable {
    public var value: String
    public var scheme: String?
    public init(value: String, scheme: String? = nil) {
      self.value = value
      self.scheme = scheme
    }
  }

  /// Where the media may be shown (`media:restriction`): country codes, URIs or sharing.
  public struct Restriction: Sendable, Equatable {
    public var value: String?
    /// `allow` or `deny`.
    public var relationship: String?
    /// `country`, `uri` or `sharing`.
    public var type: String?
    public init(value: String? = nil) { self.value = value }
  }

  /// The licence the media is under (`media:license`).
  public struct License: Sendable, Equatable {
    public var url: String?
    public var type: String?
    public var text: String?
    public init(url: String? = nil) { self.url = url }
  }

  /// Star rating, views, favourites and tags a community gave (`media:community`).
  public struct Community: Sendable, Equatable {
    /// `media:starRating`.
    public struct StarRating: Sendable, Equatable {
      public var average: Double?
      public var count: Int?
      public var min: Double?
      public var max: Double?
      public init() {}
    }
    public var starRating: StarRating?
    public var views: Int?
    public var favorites: Int?
    public var tags: [String] = []
    public init() {}
  }

  public var contents: [Content] = []
  public var thumbnails: [Thumbnail] = []
  public var title: String?
  public var titleType: String?
  public var description: String?
  public var descriptionType: String?
  public var keywords: [String] = []
  /// Categories with their scheme (default `http://search.yahoo.com/mrss/category_schema`).
  public var categories: [FeedTag] = []
  public var credits: [Credit] = []
  public var player: Player?
  public var rating: Rating?
  public var restriction: Restriction?
  public var copyright: String?
  public var license: License?
  public var community: Community?

  public init() {}

  /// True when nothing was given: writers leave the object out.
  public var isEmpty: Bool { self == MediaInfo() }
}
