/// The limits and settings of a pull, as the CLI's options name them.
public struct PullOptions: Sendable {
  /// Transfers in flight at once (`-j`).
  public var jobs = 8
  /// Limit on one source's whole transfer, connecting included, in seconds.
  public var timeout: Double = 30
  public var connectTimeout: Double = 10
  /// A body larger than this many bytes (after decompression) fails with `too_large`.
  public var maxBytes: Int64? = 64 << 20
  public var maxRedirects = 5
  public var userAgent = "feedpull/\(FeedPullVersion.current)"
  public init() {}
}

/// One source to pull, with what a subscriber remembers from the last pull.
public struct PullSource: Sendable, Hashable {
  /// The SOURCE exactly as given: a URL, a path, or `-`.
  public var source: String
  /// Conditional GET: the last `etag` and `last_modified`; an unchanged feed then ends
  /// `ok` with `not_modified` and no items.
  public var ifNoneMatch: String?
  public var ifModifiedSince: String?
  /// Asks for `EndRecord.bodyDigest`; off by default, so a pull without state pays nothing.
  public var wantsBodyDigest = false
  public init(_ source: String, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil) {
    self.source = source
    self.ifNoneMatch = ifNoneMatch
    self.ifModifiedSince = ifModifiedSince
  }
}

public enum FeedPullVersion {
  public static let current = "0.1.0"
}
