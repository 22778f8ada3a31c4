/// The Podcasting 2.0 namespace (`podcast:`, https://podcastindex.org/namespace/1.0), on a
/// channel or an episode: transcripts, chapters, funding, people, value-for-value and the
/// rest that modern podcast apps read. One table for both levels, like `ITunesFields`: the
/// fields of the other level stay empty.
public typealias PodcastInfo = RecordObject<PodcastFields>

/// The rows of the `podcast` object; its small objects' tables are nested below.
public struct PodcastFields: RecordSchema {
  /// On a channel: the show's globally unique id (a UUIDv5 of its feed URL), stable across moves.
  public let guid = Field<String>("guid")
  /// On a channel: true when the show asks other platforms not to import it (`yes`).
  public let locked = Field<Bool>("locked")
  /// On a channel: the email address that may unlock it (`owner`).
  public let lockedOwner = Field<String>("locked_owner")
  /// On a channel: where listeners can support the show, in document order.
  public let funding = Field<[RecordObject<Funding>]>("funding")
  /// Hosts, guests and other contributors, in document order.
  public let persons = Field<[RecordObject<Person>]>("persons")
  /// The place the show or episode is about; the first given.
  public let location = Field<RecordObject<Location>>("location")
  /// On a channel: trailers in document order.
  public let trailers = Field<[RecordObject<Trailer>]>("trailers")
  /// The licence of the show or episode; the first given.
  public let license = Field<RecordObject<License>>("license")
  /// On a channel: what the feed is (`podcast`, `music`, `video`, `audiobook`, …); nil when
  /// not given (the specification's default is `podcast`).
  public let medium = Field<String>("medium")
  /// Free texts with their purposes, in document order.
  public let txt = Field<[RecordObject<Text>]>("txt")
  /// On a channel: the shows it recommends (`podcast:podroll`).
  public let podroll = Field<[RecordObject<RemoteItem>]>("podroll")
  /// On a channel: how often it means to publish.
  public let updateFrequency = Field<RecordObject<UpdateFrequency>>("update_frequency")
  /// Artwork URLs from `podcast:images srcset`, resolved, without their width descriptors.
  public let images = Field<[String]>("images")
  /// Where comments live, in document order.
  public let socialInteract = Field<[RecordObject<SocialInteract>]>("social_interact")
  /// On an episode: its transcripts, in document order.
  public let transcripts = Field<[RecordObject<Transcript>]>("transcripts")
  /// On an episode: its chapters file; nil when none.
  public let chapters = Field<RecordObject<Chapters>>("chapters")
  /// On an episode: clips worth sharing, in document order.
  public let soundbites = Field<[RecordObject<Soundbite>]>("soundbites")
  /// On an episode: its season; the first `podcast:season` only.
  public let season = Field<RecordObject<Season>>("season")
  /// On an episode: its number; the first `podcast:episode` only.
  public let episode = Field<RecordObject<Episode>>("episode")
  /// On an episode: other renditions of its media, in document order.
  public let alternateEnclosures = Field<[RecordObject<AlternateEnclosure>]>("alternate_enclosures")

  /// The table's instance.
  public init() {}

  /// `podcast:funding`: where listeners can support the show.
  public struct Funding: RecordSchema {
    /// Where to give: a page URL, resolved.
    public let url = Field<String>("url")
    /// The call to action the feed writes ("Support the show").
    public let text = Field<String>("text")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:person`: a host, guest or other contributor.
  public struct Person: RecordSchema {
    /// The person's name, the element's text.
    public let name = Field<String>("name")
    /// What they do (`host`, `guest`), from the Podcast Taxonomy; nil when not given (the
    /// specification's default is `host`).
    public let role = Field<String>("role")
    /// The role's group (`cast`, `writing`), from the Podcast Taxonomy.
    public let group = Field<String>("group")
    /// A URL about the person, resolved.
    public let href = Field<String>("href")
    /// A URL of the person's picture, resolved.
    public let img = Field<String>("img")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:location`: what the show or episode is about, as a place.
  public struct Location: RecordSchema {
    /// The place's name, as a person would say it.
    public let name = Field<String>("name")
    /// A `geo:` URI.
    public let geo = Field<String>("geo")
    /// An OpenStreetMap object, `R113314`.
    public let osm = Field<String>("osm")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:trailer`.
  public struct Trailer: RecordSchema {
    /// The trailer's media file, resolved.
    public let url = Field<String>("url")
    /// The trailer's title, the element's text.
    public let title = Field<String>("title")
    /// When it was published (`pubdate`); written only when it can be read.
    public let published = Field<FeedDate>("published", .noRawDate)
    /// Bytes; nil when absent or not an integer.
    public let length = Field<Int64>("length")
    /// The media file's MIME type.
    public let type = Field<String>("type")
    /// The season the trailer is for; nil for a trailer of the whole show.
    public let season = Field<Int>("season")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:license`: a SPDX name, and a URL for any other licence.
  public struct License: RecordSchema {
    /// An SPDX identifier (`cc-by-4.0`) or a licence's name.
    public let name = Field<String>("name")
    /// The licence's text, for a licence SPDX does not list; resolved.
    public let url = Field<String>("url")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:txt`: free text with a purpose (ownership verification, …).
  public struct Text: RecordSchema {
    /// The text, up to 4000 characters by the specification (not enforced here).
    public let value = Field<String>("value")
    /// What the text is for (`verify`, `applepodcastsverify`); nil when not said.
    public let purpose = Field<String>("purpose")
    /// The table's instance.
    public init() {}
  }

  /// A `podcast:remoteItem` of a `podcast:podroll`: a show this one recommends.
  public struct RemoteItem: RecordSchema {
    /// The recommended show's `podcast:guid`, which survives a move of its feed.
    public let feedGUID = Field<String>("feed_guid")
    /// The recommended show's feed URL, resolved.
    public let feedURL = Field<String>("feed_url")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:updateFrequency`: how often the show means to publish.
  public struct UpdateFrequency: RecordSchema {
    /// The schedule as text for people ("Weekly on Mondays").
    public let value = Field<String>("value")
    /// The schedule as an iCalendar RRULE (`FREQ=WEEKLY`), for programs.
    public let rrule = Field<String>("rrule")
    /// True when the show is finished and will publish no more.
    public let complete = Field<Bool>("complete")
    /// When the schedule starts; written only when it can be read.
    public let dtstart = Field<FeedDate>("dtstart", .noRawDate)
    /// The table's instance.
    public init() {}
  }

  /// `podcast:socialInteract`: where comments on an episode live.
  public struct SocialInteract: RecordSchema {
    /// Where the comments are (a post's URL or URI in `protocol`'s terms); `disabled` when the
    /// protocol is `disabled`.
    public let uri = Field<String>("uri")
    /// How to reach them: `activitypub`, `twitter`, `lightning`, `atproto`, `disabled`, ….
    public let `protocol` = Field<String>("protocol")
    /// The account that posts the episode's root post, in the protocol's form (`@podcast@host`).
    public let accountID = Field<String>("account_id")
    /// The URL of that account's profile.
    public let accountURL = Field<String>("account_url")
    /// Order among several `socialInteract`, lowest first; nil when not given.
    public let priority = Field<Int>("priority")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:transcript`.
  public struct Transcript: RecordSchema {
    /// The transcript file, resolved.
    public let url = Field<String>("url")
    /// Its MIME type (`text/vtt`, `application/x-subrip`, `application/json`).
    public let type = Field<String>("type")
    /// The transcript's language; nil means the feed's.
    public let language = Field<String>("language")
    /// `captions` when the file is timed for closed captions; nil for a plain transcript.
    public let rel = Field<String>("rel")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:chapters`: a JSON chapters file.
  public struct Chapters: RecordSchema {
    /// The chapters file, resolved; a player fetches it.
    public let url = Field<String>("url")
    /// Its MIME type (`application/json+chapters`).
    public let type = Field<String>("type")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:soundbite`: a clip worth sharing; times in seconds.
  public struct Soundbite: RecordSchema {
    /// Seconds from the start of the episode.
    public let start = Field<Double>("start")
    /// Seconds the clip lasts.
    public let duration = Field<Double>("duration")
    /// The clip's title, the element's text; nil when empty.
    public let title = Field<String>("title")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:season`.
  public struct Season: RecordSchema {
    /// The season's number (a number, fractions allowed by the specification).
    public let number = Field<Double>("number")
    /// The season's name (`name` attribute), shown in place of the number.
    public let name = Field<String>("name")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:episode`.
  public struct Episode: RecordSchema {
    /// The episode's number, a number that may have a fraction (`1.5`).
    public let number = Field<Double>("number")
    /// What to show in place of the number (`display`: "Ch. 3").
    public let display = Field<String>("display")
    /// The table's instance.
    public init() {}
  }

  /// `podcast:alternateEnclosure`: another rendition of the episode, with its sources.
  public struct AlternateEnclosure: RecordSchema {
    /// The rendition's MIME type.
    public let type = Field<String>("type")
    /// Bytes; nil when absent or not an integer.
    public let length = Field<Int64>("length")
    /// Bits a second.
    public let bitrate = Field<Double>("bitrate")
    /// Video height in pixels.
    public let height = Field<Int>("height")
    /// The rendition's language (a dubbed version); nil means the episode's.
    public let lang = Field<String>("lang")
    /// A short label for a picker ("Standard", "High quality").
    public let title = Field<String>("title")
    /// What the rendition is, for grouping (`ad-free`, `hq`).
    public let rel = Field<String>("rel")
    /// True for the rendition that matches the item's `enclosure` (`default`).
    public let isDefault = Field<Bool>("default")
    /// URLs where the same file can be fetched (`podcast:source`), resolved, in document order.
    public let sources = Field<[String]>("sources")
    /// The table's instance.
    public init() {}
  }
}

extension RecordObject where Schema == PodcastFields {
  /// `podcast:funding`.
  public typealias Funding = RecordObject<PodcastFields.Funding>
  /// `podcast:person`.
  public typealias Person = RecordObject<PodcastFields.Person>
  /// `podcast:location`.
  public typealias Location = RecordObject<PodcastFields.Location>
  /// `podcast:trailer`.
  public typealias Trailer = RecordObject<PodcastFields.Trailer>
  /// `podcast:license`.
  public typealias License = RecordObject<PodcastFields.License>
  /// `podcast:txt`.
  public typealias Text = RecordObject<PodcastFields.Text>
  /// A `podcast:remoteItem`.
  public typealias RemoteItem = RecordObject<PodcastFields.RemoteItem>
  /// `podcast:updateFrequency`.
  public typealias UpdateFrequency = RecordObject<PodcastFields.UpdateFrequency>
  /// `podcast:socialInteract`.
  public typealias SocialInteract = RecordObject<PodcastFields.SocialInteract>
  /// `podcast:transcript`.
  public typealias Transcript = RecordObject<PodcastFields.Transcript>
  /// `podcast:chapters`.
  public typealias Chapters = RecordObject<PodcastFields.Chapters>
  /// `podcast:soundbite`.
  public typealias Soundbite = RecordObject<PodcastFields.Soundbite>
  /// `podcast:season`.
  public typealias Season = RecordObject<PodcastFields.Season>
  /// `podcast:episode`.
  public typealias Episode = RecordObject<PodcastFields.Episode>
  /// `podcast:alternateEnclosure`.
  public typealias AlternateEnclosure = RecordObject<PodcastFields.AlternateEnclosure>
}
