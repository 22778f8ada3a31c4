/// The Podcasting 2.0 namespace (`podcast:`, https://podcastindex.org/namespace/1.0), on a
/// channel or an episode: transcripts, chapters, funding, people, value-for-value and the
/// rest that modern podcast apps read. One type for both levels, like `ITunesInfo`: the
/// fields of the other level stay empty.
public struct PodcastInfo: Sendable, Equatable {
  /// `podcast:funding`: where listeners can support the show.
  public struct Funding: Sendable, Equatable {
    public var url: String?
    public var text: String?
    public init(url: String? = nil, text: String? = nil) {
      self.url = url
      self.text = text
    }
  }
  /// `podcast:person`: a host, guest or other contributor.
  public struct Person: Sendable, Equatable {
    public var name: String?
    public var role: String?
    public var group: String?
    public var href: String?
    public var img: String?
    public init(name: String? = nil) { self.name = name }
  }
  /// `podcast:location`: what the show or episode is about, as a place.
  public struct Location: Sendable, Equatable {
    public var name: String?
    /// A `geo:` URI.
    public var geo: String?
    /// An OpenStreetMap object, `R113314`.
    public var osm: String?
    public init(name: String? = nil) { self.name = name }
  }
  /// `podcast:trailer`.
  public struct Trailer: Sendable, Equatable {
    public var url: String?
    public var title: String?
    public var published: FeedDate?
    public var length: Int64?
    public var type: String?
    public var season: Int?
    public init(url: String? = nil) { self.url = url }
  }
  /// `podcast:license`: a SPDX name, and a URL for any other licence.
  public struct License: Sendable, Equatable {
    public var name: String?
    public var url: String?
    public init(name: String? = nil, url: String? = nil) {
      self.name = name
      self.url = url
    }
  }
  /// `podcast:txt`: free text with a purpose (ownership verification, …).
  public struct Text: Sendable, Equatable {
    public var value: String
    public var purpose: String?
    public init(value: String, purpose: String? = nil) {
      self.value = value
      self.purpose = purpose
    }
  }
  /// A `podcast:remoteItem` of a `podcast:podroll`: a show this one recommends.
  public struct RemoteItem: Sendable, Equatable {
    public var feedGUID: String?
    public var feedURL: String?
    public init(feedGUID: String? = nil, feedURL: String? = nil) {
      self.feedGUID = feedGUID
      self.feedURL = feedURL
    }
  }
  /// `podcast:updateFrequency`: how often the show means to publish.
  public struct UpdateFrequency: Sendable, Equatable {
    public var value: String?
    public var rrule: String?
    public var complete: Bool?
    public var dtstart: FeedDate?
    public init(value: String? = nil) { self.value = value }
  }
  /// `podcast:socialInteract`: where comments on an episode live.
  public struct SocialInteract: Sendable, Equatable {
    public var uri: String?
    public var `protocol`: String?
    public var accountID: String?
    public var accountURL: String?
    public var priority: Int?
    public init(uri: String? = nil) { self.uri = uri }
  }
  /// `podcast:transcript`.
  public struct Transcript: Sendable, Equatable {
    public var url: String?
    public var type: String?
    public var language: String?
    public var rel: String?
    public init(url: String? = nil) { self.url = url }
  }
  /// `podcast:chapters`: a JSON chapters file.
  public struct Chapters: Sendable, Equatable {
    public var url: String?
    public var type: String?
    public init(url: String? = nil, type: String? = nil) {
      self.url = url
      self.type = type
    }
  }
  /// `podcast:soundbite`: a clip worth sharing; times in seconds.
  public struct Soundbite: Sendable, Equatable {
    public var start: Double?
    public var duration: Double?
    public var title: String?
    public init(start: Double? = nil, duration: Double? = nil, title: String? = nil) {
      self.start = start
      self.duration = duration
      self.title = title
    }
  }
  /// `podcast:season`.
  public struct Season: Sendable, Equatable {
    public var number: Double?
    public var name: String?
    public init(number: Double? = nil, name: String? = nil) {
      self.number = number
      self.name = name
    }
  }
  /// `podcast:episode`.
  public struct Episode: Sendable, Equatable {
    public var number: Double?
    public var display: String?
    public init(number: Double? = nil, display: String? = nil) {
      self.number = number
      self.display = display
    }
  }
  /// `podcast:alternateEnclosure`: another rendition of the episode, with its sources.
  public struct AlternateEnclosure: Sendable, Equatable {
    public var type: String?
    public var length: Int64?
    public var bitrate: Double?
    public var height: Int?
    public var lang: String?
    public var title: String?
    public var rel: String?
    public var isDefault: Bool?
    public var sources: [String] = []
    public init(type: String? = nil) { self.type = type }
  }

  // Channel.
  public var guid: String?
  public var locked: Bool?
  public var lockedOwner: String?
  public var funding: [Funding] = []
  public var trailers: [Trailer] = []
  public var medium: String?
  public var podroll: [RemoteItem] = []
  public var updateFrequency: UpdateFrequency?
  // Item.
  public var transcripts: [Transcript] = []
  public var chapters: Chapters?
  public var soundbites: [Soundbite] = []
  public var season: Season?
  public var episode: Episode?
  public var alternateEnclosures: [AlternateEnclosure] = []
  // Both.
  public var persons: [Person] = []
  public var location: Location?
  public var license: License?
  public var txt: [Text] = []
  public var images: [String] = []
  public var socialInteract: [SocialInteract] = []

  public init() {}

  /// True when nothing was given: writers leave the object out.
  public var isEmpty: Bool { self == PodcastInfo() }
}
