/// The Podcasting 2.0 namespace (`podcast:`, https://podcastindex.org/namespace/1.0), on a
/// channel or an episode: transcripts, chapters, funding, people, value-for-value and the
/// rest that modern podcast apps read. One type for both levels, like `ITunesInfo`: the
/// fields of the other level stay empty.
public struct PodcastInfo: Sendable, Equatable {
  /// `podcast:funding`: where listeners can support the show.
  public struct Funding: Sendable, Equatable {
    /// Where to give: a page URL, resolved.
    public var url: String?
    /// The call to action the feed writes ("Support the show").
    public var text: String?
    /// A funding entry as given.
    public init(url: String? = nil, text: String? = nil) {
      self.url = url
      self.text = text
    }
  }
  /// `podcast:person`: a host, guest or other contributor.
  public struct Person: Sendable, Equatable {
    /// The person's name, the element's text.
    public var name: String?
    /// What they do (`host`, `guest`), from the Podcast Taxonomy; nil when not given (the
    /// specification's default is `host`).
    public var role: String?
    /// The role's group (`cast`, `writing`), from the Podcast Taxonomy.
    public var group: String?
    /// A URL about the person, resolved.
    public var href: String?
    /// A URL of the person's picture, resolved.
    public var img: String?
    /// A person as given; every part may be nil.
    public init(
      name: String? = nil, role: String? = nil, group: String? = nil, href: String? = nil,
      img: String? = nil
    ) {
      self.name = name
      self.role = role
      self.group = group
      self.href = href
      self.img = img
    }
  }
  /// `podcast:location`: what the show or episode is about, as a place.
  public struct Location: Sendable, Equatable {
    /// The place's name, as a person would say it.
    public var name: String?
    /// A `geo:` URI.
    public var geo: String?
    /// An OpenStreetMap object, `R113314`.
    public var osm: String?
    /// A location with its name.
    public init(name: String? = nil) { self.name = name }
  }
  /// `podcast:trailer`.
  public struct Trailer: Sendable, Equatable {
    /// The trailer's media file, resolved.
    public var url: String?
    /// The trailer's title, the element's text.
    public var title: String?
    /// When it was published (`pubdate`); raw text when it cannot be read.
    public var published: FeedDate?
    /// Bytes; nil when absent or not an integer.
    public var length: Int64?
    /// The media file's MIME type.
    public var type: String?
    /// The season the trailer is for; nil for a trailer of the whole show.
    public var season: Int?
    /// A trailer at `url`.
    public init(url: String? = nil) { self.url = url }
  }
  /// `podcast:license`: a SPDX name, and a URL for any other licence.
  public struct License: Sendable, Equatable {
    /// An SPDX identifier (`cc-by-4.0`) or a licence's name.
    public var name: String?
    /// The licence's text, for a licence SPDX does not list; resolved.
    public var url: String?
    /// A licence as given.
    public init(name: String? = nil, url: String? = nil) {
      self.name = name
      self.url = url
    }
  }
  /// `podcast:txt`: free text with a purpose (ownership verification, …).
  public struct Text: Sendable, Equatable {
    /// The text, up to 4000 characters by the specification (not enforced here).
    public var value: String
    /// What the text is for (`verify`, `applepodcastsverify`); nil when not said.
    public var purpose: String?
    /// A text entry as given.
    public init(value: String, purpose: String? = nil) {
      self.value = value
      self.purpose = purpose
    }
  }
  /// A `podcast:remoteItem` of a `podcast:podroll`: a show this one recommends.
  public struct RemoteItem: Sendable, Equatable {
    /// The recommended show's `podcast:guid`, which survives a move of its feed.
    public var feedGUID: String?
    /// The recommended show's feed URL, resolved.
    public var feedURL: String?
    /// A recommendation as given; either part may be nil.
    public init(feedGUID: String? = nil, feedURL: String? = nil) {
      self.feedGUID = feedGUID
      self.feedURL = feedURL
    }
  }
  /// `podcast:updateFrequency`: how often the show means to publish.
  public struct UpdateFrequency: Sendable, Equatable {
    /// The schedule as text for people ("Weekly on Mondays").
    public var value: String?
    /// The schedule as an iCalendar RRULE (`FREQ=WEEKLY`), for programs.
    public var rrule: String?
    /// True when the show is finished and will publish no more.
    public var complete: Bool?
    /// When the schedule starts.
    public var dtstart: FeedDate?
    /// A frequency with its text.
    public init(value: String? = nil) { self.value = value }
  }
  /// `podcast:socialInteract`: where comments on an episode live.
  public struct SocialInteract: Sendable, Equatable {
    /// Where the comments are (a post's URL or URI in `protocol`'s terms); `disabled` when the
    /// protocol is `disabled`.
    public var uri: String?
    /// How to reach them: `activitypub`, `twitter`, `lightning`, `atproto`, `disabled`, ….
    public var `protocol`: String?
    /// The account that posts the episode's root post, in the protocol's form (`@podcast@host`).
    public var accountID: String?
    /// The URL of that account's profile.
    public var accountURL: String?
    /// Order among several `socialInteract`, lowest first; nil when not given.
    public var priority: Int?
    /// A comments location at `uri`.
    public init(uri: String? = nil) { self.uri = uri }
  }
  /// `podcast:transcript`.
  public struct Transcript: Sendable, Equatable {
    /// The transcript file, resolved.
    public var url: String?
    /// Its MIME type (`text/vtt`, `application/x-subrip`, `application/json`).
    public var type: String?
    /// The transcript's language; nil means the feed's.
    public var language: String?
    /// `captions` when the file is timed for closed captions; nil for a plain transcript.
    public var rel: String?
    /// A transcript as given; every part may be nil.
    public init(
      url: String? = nil, type: String? = nil, language: String? = nil, rel: String? = nil
    ) {
      self.url = url
      self.type = type
      self.language = language
      self.rel = rel
    }
  }
  /// `podcast:chapters`: a JSON chapters file.
  public struct Chapters: Sendable, Equatable {
    /// The chapters file, resolved; a player fetches it.
    public var url: String?
    /// Its MIME type (`application/json+chapters`).
    public var type: String?
    /// A chapters reference as given.
    public init(url: String? = nil, type: String? = nil) {
      self.url = url
      self.type = type
    }
  }
  /// `podcast:soundbite`: a clip worth sharing; times in seconds.
  public struct Soundbite: Sendable, Equatable {
    /// Seconds from the start of the episode.
    public var start: Double?
    /// Seconds the clip lasts.
    public var duration: Double?
    /// The clip's title, the element's text; nil when empty.
    public var title: String?
    /// A soundbite as given; a time that is not a number is nil.
    public init(start: Double? = nil, duration: Double? = nil, title: String? = nil) {
      self.start = start
      self.duration = duration
      self.title = title
    }
  }
  /// `podcast:season`.
  public struct Season: Sendable, Equatable {
    /// The season's number (a number, fractions allowed by the specification).
    public var number: Double?
    /// The season's name (`name` attribute), shown in place of the number.
    public var name: String?
    /// A season as given.
    public init(number: Double? = nil, name: String? = nil) {
      self.number = number
      self.name = name
    }
  }
  /// `podcast:episode`.
  public struct Episode: Sendable, Equatable {
    /// The episode's number, a number that may have a fraction (`1.5`).
    public var number: Double?
    /// What to show in place of the number (`display`: "Ch. 3").
    public var display: String?
    /// An episode number as given.
    public init(number: Double? = nil, display: String? = nil) {
      self.number = number
      self.display = display
    }
  }
  /// `podcast:alternateEnclosure`: another rendition of the episode, with its sources.
  public struct AlternateEnclosure: Sendable, Equatable {
    /// The rendition's MIME type.
    public var type: String?
    /// Bytes; nil when absent or not an integer.
    public var length: Int64?
    /// Bits a second.
    public var bitrate: Double?
    /// Video height in pixels.
    public var height: Int?
    /// The rendition's language (a dubbed version); nil means the episode's.
    public var lang: String?
    /// A short label for a picker ("Standard", "High quality").
    public var title: String?
    /// What the rendition is, for grouping (`ad-free`, `hq`).
    public var rel: String?
    /// True for the rendition that matches the item's `enclosure` (`default`).
    public var isDefault: Bool?
    /// URLs where the same file can be fetched (`podcast:source`), resolved, in document order.
    public var sources: [String] = []
    /// A rendition as given; the sources are added as their elements are read.
    public init(
      type: String? = nil, length: Int64? = nil, bitrate: Double? = nil, height: Int? = nil,
      lang: String? = nil, title: String? = nil, rel: String? = nil, isDefault: Bool? = nil
    ) {
      self.type = type
      self.length = length
      self.bitrate = bitrate
      self.height = height
      self.lang = lang
      self.title = title
      self.rel = rel
      self.isDefault = isDefault
    }
  }

  // Channel.
  /// On a channel: the show's globally unique id (a UUIDv5 of its feed URL), stable across moves.
  public var guid: String?
  /// On a channel: true when the show asks other platforms not to import it (`yes`).
  public var locked: Bool?
  /// On a channel: the email address that may unlock it (`owner`).
  public var lockedOwner: String?
  /// On a channel: where listeners can support the show, in document order.
  public var funding: [Funding] = []
  /// On a channel: trailers in document order.
  public var trailers: [Trailer] = []
  /// On a channel: what the feed is (`podcast`, `music`, `video`, `audiobook`, …); nil when
  /// not given (the specification's default is `podcast`).
  public var medium: String?
  /// On a channel: the shows it recommends (`podcast:podroll`).
  public var podroll: [RemoteItem] = []
  /// On a channel: how often it means to publish.
  public var updateFrequency: UpdateFrequency?
  // Item.
  /// On an episode: its transcripts, in document order.
  public var transcripts: [Transcript] = []
  /// On an episode: its chapters file; nil when none.
  public var chapters: Chapters?
  /// On an episode: clips worth sharing, in document order.
  public var soundbites: [Soundbite] = []
  /// On an episode: its season; the first `podcast:season` only.
  public var season: Season?
  /// On an episode: its number; the first `podcast:episode` only.
  public var episode: Episode?
  /// On an episode: other renditions of its media, in document order.
  public var alternateEnclosures: [AlternateEnclosure] = []
  // Both.
  /// Hosts, guests and other contributors, in document order.
  public var persons: [Person] = []
  /// The place the show or episode is about; the first given.
  public var location: Location?
  /// The licence of the show or episode; the first given.
  public var license: License?
  /// Free texts with their purposes, in document order.
  public var txt: [Text] = []
  /// Artwork URLs from `podcast:images srcset`, resolved, without their width descriptors.
  public var images: [String] = []
  /// Where comments live, in document order.
  public var socialInteract: [SocialInteract] = []

  /// An empty object; the parser fills in what the feed gives.
  public init() {}

  /// True when nothing was given: writers leave the object out.
  public var isEmpty: Bool { self == PodcastInfo() }
}
