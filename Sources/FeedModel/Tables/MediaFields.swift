/// Media RSS (`media:`), on an item or a channel, with a `media:group`'s parts and a
/// `media:content`'s own children merged in: video and photo feeds (YouTube, Flickr, news
/// agencies) put everything a player needs here rather than in `enclosure`.
public typealias MediaInfo = RecordObject<MediaFields>

/// The rows of the `media` object; its small objects' tables are nested below.
public struct MediaFields: RecordSchema {
  /// Every `media:content` in document order: the renditions of the media object.
  public let contents = Field<[RecordObject<Content>]>("contents")
  /// Preview images in document order.
  public let thumbnails = Field<[RecordObject<Thumbnail>]>("thumbnails")
  /// `media:title`; fills the item's title when it has none.
  public let title = Field<String>("title")
  /// `text/plain` or `text/html` (the feed's `plain` / `html`); nil only when there is no title.
  public let titleType = Field<String>("title_type", .typeOfPrevious)
  /// `media:description`; fills the item's summary when it has none.
  public let description = Field<String>("description")
  /// `text/plain` or `text/html`; nil only when there is no description.
  public let descriptionType = Field<String>("description_type", .typeOfPrevious)
  /// `media:keywords`, split on commas and trimmed, each once.
  public let keywords = Field<[String]>("keywords")
  /// Categories with their scheme (default `http://search.yahoo.com/mrss/category_schema`).
  public let categories = Field<[FeedTag]>("categories")
  /// Who took part, in document order.
  public let credits = Field<[RecordObject<Credit>]>("credits")
  /// How to play the media in a browser; the first `media:player` only.
  public let player = Field<RecordObject<Player>>("player")
  /// The audience rating; the first given.
  public let rating = Field<RecordObject<Rating>>("rating")
  /// Where the media may be shown; the first given.
  public let restriction = Field<RecordObject<Restriction>>("restriction")
  /// `media:copyright`, the copyright statement as text.
  public let copyright = Field<String>("copyright")
  /// The licence; the first given.
  public let license = Field<RecordObject<License>>("license")
  /// Ratings, views and tags from the media's community; nil when none.
  public let community = Field<RecordObject<Community>>("community")

  /// The table's instance.
  public init() {}

  /// One rendition of the media object (`media:content`).
  public struct Content: RecordSchema {
    /// The rendition's URL, resolved; nil for a `media:content` that only carries a player.
    public let url = Field<String>("url")
    /// Its MIME type (`video/mp4`).
    public let type = Field<String>("type")
    /// `image`, `audio`, `video`, `document` or `executable`.
    public let medium = Field<String>("medium")
    /// True when the feed marks this rendition as the default of its group (`isDefault`).
    public let isDefault = Field<Bool>("is_default")
    /// `sample`, `full` or `nonstop`.
    public let expression = Field<String>("expression")
    /// Kilobits a second.
    public let bitrate = Field<Double>("bitrate")
    /// Frames a second.
    public let framerate = Field<Double>("framerate")
    /// Kilohertz.
    public let samplingRate = Field<Double>("sampling_rate")
    /// Audio channels (2 for stereo).
    public let channels = Field<Int>("channels")
    /// Seconds.
    public let duration = Field<Double>("duration")
    /// Width in pixels (video, image); nil when not given.
    public let width = Field<Int>("width")
    /// Height in pixels (video, image); nil when not given.
    public let height = Field<Int>("height")
    /// The language of the rendition (RFC 5646 tag).
    public let lang = Field<String>("lang")
    /// Bytes (`fileSize`); nil when absent or not an integer.
    public let fileSize = Field<Int64>("file_size")
    /// The table's instance.
    public init() {}
  }

  /// A preview image; `time` is the offset in the media it shows, as written (NTP time).
  public struct Thumbnail: RecordSchema {
    /// The image's URL, resolved.
    public let url = Field<String>("url")
    /// Width in pixels; nil when not given.
    public let width = Field<Int>("width")
    /// Height in pixels; nil when not given.
    public let height = Field<Int>("height")
    /// The offset in the media the image shows, as written (`12:05:01.123`), not parsed.
    public let time = Field<String>("time")
    /// The table's instance.
    public init() {}
  }

  /// Someone who took part (`media:credit`); the scheme defaults to `urn:ebu`.
  public struct Credit: RecordSchema {
    /// The person's or organisation's name, trimmed.
    public let name = Field<String>("name")
    /// What they did (`director`, `producer`), in the scheme's vocabulary.
    public let role = Field<String>("role")
    /// The vocabulary of `role`; the parser fills in `urn:ebu` when the feed names none.
    public let scheme = Field<String>("scheme")
    /// The table's instance.
    public init() {}
  }

  /// Where the media plays in a browser (`media:player`).
  public struct Player: RecordSchema {
    /// The player's page or embed URL, resolved.
    public let url = Field<String>("url")
    /// Pixels the player wants.
    public let width = Field<Int>("width")
    /// Pixels the player wants.
    public let height = Field<Int>("height")
    /// The table's instance.
    public init() {}
  }

  /// An audience rating (`media:rating`), e.g. `adult` in `urn:simple`.
  public struct Rating: RecordSchema {
    /// The rating in the scheme's vocabulary (`adult`, `nonadult`, `r`).
    public let value = Field<String>("value")
    /// The rating system (`urn:mpaa`, `urn:v-chip`); the parser fills in `urn:simple` when the
    /// feed names none.
    public let scheme = Field<String>("scheme")
    /// The table's instance.
    public init() {}
  }

  /// Where the media may be shown (`media:restriction`): country codes, URIs or sharing.
  public struct Restriction: RecordSchema {
    /// Space-separated country codes or URIs, or `all` / `none`; as written.
    public let value = Field<String>("value")
    /// `allow` or `deny`.
    public let relationship = Field<String>("relationship")
    /// `country`, `uri` or `sharing`.
    public let type = Field<String>("type")
    /// The table's instance.
    public init() {}
  }

  /// The licence the media is under (`media:license`).
  public struct License: RecordSchema {
    /// The licence's URL (`href`), resolved.
    public let url = Field<String>("url")
    /// The MIME type of the licence's page.
    public let type = Field<String>("type")
    /// The licence's name as text (`Creative Commons Attribution 3.0`).
    public let text = Field<String>("text")
    /// The table's instance.
    public init() {}
  }

  /// Star rating, views, favourites and tags a community gave (`media:community`).
  public struct Community: RecordSchema {
    /// The star rating; nil when none was given.
    public let starRating = Field<RecordObject<StarRating>>("star_rating")
    /// Times the media was viewed (`media:statistics views`).
    public let views = Field<Int>("views")
    /// Times it was marked a favourite (`media:statistics favorites`).
    public let favorites = Field<Int>("favorites")
    /// The community's tags (`media:tags`), split on commas and trimmed, as written.
    public let tags = Field<[String]>("tags")
    /// The table's instance.
    public init() {}
  }

  /// `media:starRating`.
  public struct StarRating: RecordSchema {
    /// The mean of the ratings, on the scale from `min` to `max`.
    public let average = Field<Double>("average")
    /// How many ratings the mean is of.
    public let count = Field<Int>("count")
    /// The lowest rating the scale allows.
    public let min = Field<Double>("min")
    /// The highest rating the scale allows.
    public let max = Field<Double>("max")
    /// The table's instance.
    public init() {}
  }
}

extension RecordObject where Schema == MediaFields {
  /// A `media:content`.
  public typealias Content = RecordObject<MediaFields.Content>
  /// A `media:thumbnail`.
  public typealias Thumbnail = RecordObject<MediaFields.Thumbnail>
  /// A `media:credit`.
  public typealias Credit = RecordObject<MediaFields.Credit>
  /// The `media:player`.
  public typealias Player = RecordObject<MediaFields.Player>
  /// The `media:rating`.
  public typealias Rating = RecordObject<MediaFields.Rating>
  /// The `media:restriction`.
  public typealias Restriction = RecordObject<MediaFields.Restriction>
  /// The `media:license`.
  public typealias License = RecordObject<MediaFields.License>
  /// The `media:community`.
  public typealias Community = RecordObject<MediaFields.Community>
}
