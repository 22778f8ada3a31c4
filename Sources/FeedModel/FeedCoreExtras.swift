/// A category with the vocabulary it comes from: Atom `scheme`/`label`, RSS `domain`,
/// `media:category`, `itunes:category` and keywords. Kept apart from the plain `categories` so
/// that a reader who only wants terms does not have to look through schemes.
public struct FeedTag: Sendable, Equatable, Hashable {
  public var term: String
  public var scheme: String?
  public var label: String?
  public init(term: String, scheme: String? = nil, label: String? = nil) {
    self.term = term
    self.scheme = scheme
    self.label = label
  }
}

/// Where an item was first published (RSS `<source>`, Atom `<source>`): aggregated feeds name
/// the original, which a reader shows as the item's origin.
public struct FeedOrigin: Sendable, Equatable {
  public var title: String?
  public var url: String?
  public init(title: String? = nil, url: String? = nil) {
    self.title = title
    self.url = url
  }
}

/// A `thr:in-reply-to` (RFC 4685): the entry a comment answers, so that threads can be rebuilt.
public struct FeedReplyReference: Sendable, Equatable {
  public var ref: String?
  public var href: String?
  public var type: String?
  public init(ref: String? = nil, href: String? = nil, type: String? = nil) {
    self.ref = ref
    self.href = href
    self.type = type
  }
}

/// A YouTube channel's or video's ids (the `yt:` namespace of YouTube's feeds), which a reader
/// needs to embed or link a video without scraping its page.
public struct YouTubeInfo: Sendable, Equatable {
  public var videoID: String?
  public var channelID: String?
  public init(videoID: String? = nil, channelID: String? = nil) {
    self.videoID = videoID
    self.channelID = channelID
  }
  /// True when neither id was given: writers leave the object out.
  public var isEmpty: Bool { videoID == nil && channelID == nil }
}
