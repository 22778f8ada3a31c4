/// Podlove Simple Chapters (`psc:chapters`), the chapter marks a podcast gives inline in an
/// episode so that a player can jump to them.
public struct PodloveChapters: Sendable, Equatable {
  /// One chapter mark.
  public struct Chapter: Sendable, Equatable {
    /// Seconds from the start, with milliseconds; nil when the mark's time cannot be read.
    public var start: Double?
    /// The chapter's title, as a player lists it; nil when the mark has none.
    public var title: String?
    /// A URL about the chapter (a show note, a product), resolved.
    public var href: String?
    /// A URL of a picture for the chapter, resolved.
    public var image: String?
    /// A chapter mark as the feed gives it.
    public init(
      start: Double? = nil, title: String? = nil, href: String? = nil, image: String? = nil
    ) {
      self.start = start
      self.title = title
      self.href = href
      self.image = image
    }
  }
  /// The format's version the feed names (`psc:chapters version="1.2"`).
  public var version: String?
  /// The chapter marks in document order (players expect ascending start times; they are not
  /// sorted here).
  public var list: [Chapter] = []
  /// An empty chapter list of `version`.
  public init(version: String? = nil) { self.version = version }
}
