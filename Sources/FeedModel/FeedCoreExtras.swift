/// A category with the vocabulary it comes from: Atom `scheme`/`label`, RSS `domain`,
/// `media:category`, `itunes:category` and keywords. Kept apart from the plain `categories` so
/// that a reader who only wants terms does not have to look through schemes.
public struct FeedTag: Sendable, Equatable, Hashable {
  /// The category itself, trimmed (Atom `term`, the element's text elsewhere).
  public var term: String
  /// A URI naming the vocabulary (Atom `scheme`, RSS `domain`, `http://www.itunes.com/` for
  /// iTunes categories and keywords); nil when none.
  public var scheme: String?
  /// A human-readable name for the term (Atom `label`); nil when none.
  public var label: String?
  /// A tag; the parser keeps each (term, scheme, label) once per record.
  public init(term: String, scheme: String? = nil, label: String? = nil) {
    self.term = term
    self.scheme = scheme
    self.label = label
  }

  /// Equal when all three parts are. The scheme is compared first: a record's tags mostly
  /// share a few schemes (one string, equal at once) or differ in them, while the terms differ
  /// and a term that is not ASCII is compared through Unicode's canonical equivalence.
  public static func == (lhs: FeedTag, rhs: FeedTag) -> Bool {
    same(lhs.scheme, rhs.scheme) && same(lhs.label, rhs.label) && lhs.term == rhs.term
  }

  /// `==` on two optional strings without `Optional`'s generic one, which copied each through
  /// its value witnesses (about seventy instructions a comparison).
  @inline(__always)
  private static func same(_ lhs: String?, _ rhs: String?) -> Bool {
    guard let lhs else { return rhs == nil }
    guard let rhs else { return false }
    return lhs == rhs
  }
}

/// Where an item was first published (RSS `<source>`, Atom `<source>`): aggregated feeds name
/// the original, which a reader shows as the item's origin.
public struct FeedOrigin: Sendable, Equatable {
  /// The original feed's title, trimmed.
  public var title: String?
  /// The original feed's URL: RSS `<source url>`, or the Atom `<source>`'s `rel="self"` link, else
  /// its alternate link.
  public var url: String?
  /// An origin; writers leave it out when both parts are nil.
  public init(title: String? = nil, url: String? = nil) {
    self.title = title
    self.url = url
  }
}

/// A `thr:in-reply-to` (RFC 4685): the entry a comment answers, so that threads can be rebuilt.
public struct FeedReplyReference: Sendable, Equatable {
  /// The id of the entry answered (`ref`), as given.
  public var ref: String?
  /// A URL where the answered entry can be read, resolved.
  public var href: String?
  /// The MIME type of `href`.
  public var type: String?
  /// A reference; `ref` is required by RFC 4685 but kept optional, as feeds omit it.
  public init(ref: String? = nil, href: String? = nil, type: String? = nil) {
    self.ref = ref
    self.href = href
    self.type = type
  }
}

/// A YouTube channel's or video's ids (the `yt:` namespace of YouTube's feeds), which a reader
/// needs to embed or link a video without scraping its page.
public struct YouTubeInfo: Sendable, Equatable {
  /// The video's id (`yt:videoId`), on an entry.
  public var videoID: String?
  /// The channel's id (`yt:channelId`), on the feed and on each entry.
  public var channelID: String?
  /// The ids as given; either may be nil.
  public init(videoID: String? = nil, channelID: String? = nil) {
    self.videoID = videoID
    self.channelID = channelID
  }
  /// True when neither id was given: writers leave the object out.
  public var isEmpty: Bool { videoID == nil && channelID == nil }
}
