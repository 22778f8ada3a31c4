/// Podlove Simple Chapters (`psc:chapters`), the chapter marks a podcast gives inline in an
/// episode so that a player can jump to them.
public struct PodloveChapters: Sendable, Equatable {
  /// One chapter mark.
  public struct Chapter: Sendable, Equatable {
    /// Seconds from the start, with milliseconds; nil when the mark's time cannot be read.
    public var start: Double?
    public var title: String?
    public var href: String?
    public var image: String?
    public init(
      start: Double? = nil, title: String? = nil, href: String? = nil, image: String? = nil
    ) {
      self.start = start
      self.title = title
      self.href = href
      self.image = image
    }
  }
  public var version: String?
  public var list: [Chapter] = []
  public init(version: String? = nil) { self.version = version }
}
