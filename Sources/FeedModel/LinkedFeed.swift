/// A feed that an HTML page links (`<link rel="alternate" type="application/rss+xml">`): what
/// feed discovery pulls in the page's place, and what `--no-discover` lists for the user.
public struct LinkedFeed: Sendable, Equatable {
  /// Resolved against the page's `<base href>` and URL.
  public var url: String
  /// The MIME type the page gives, lower-cased, without parameters.
  public var type: String?
  /// The link's `title`, which often tells several feeds of one page apart ("Comments").
  public var title: String?
  /// A linked feed as the page gives it.
  public init(url: String, type: String? = nil, title: String? = nil) {
    self.url = url
    self.type = type
    self.title = title
  }
}
