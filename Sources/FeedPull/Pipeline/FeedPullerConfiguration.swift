extension FeedPuller {
  /// How a `FeedPuller` pulls: its concurrency, its politeness towards servers, and the limits
  /// every source gets unless its `PullSource` says otherwise.
  ///
  /// The defaults are the command's: a tool that embeds feedpull is as polite to servers as
  /// `feedpull` itself, and a body larger than 64 MiB from the network is refused.
  public struct Configuration: Sendable {
    /// Transfers in flight at once; the rest wait in the worker's queue.
    public var maxConcurrentTransfers = 8
    /// Transfers in flight to one site (its registrable domain) at once.
    public var maxTransfersPerHost = 2
    /// The least time between two request starts to one site.
    public var hostDelay: Duration = .seconds(1)
    /// Limit on one source's whole transfer, connecting included.
    public var timeout: Duration = .seconds(30)
    /// Limit on connecting.
    public var connectTimeout: Duration = .seconds(10)
    /// A network body larger than this (after decompression) fails with `tooLarge`, keeping the
    /// items within the limit. Nil: no limit.
    public var maxNetworkBodyBytes: Int64? = 64 << 20
    /// The same for files and standard input: nil by default, since a local file is the user's
    /// own and its size already known (a 100 MB archive is read whole).
    public var maxLocalBodyBytes: Int64?
    /// Redirects followed; past it the source fails with `redirects`.
    public var maxRedirects = 5
    /// The `User-Agent` header.
    public var userAgent = "feedpull/\(FeedPullVersion.current)"
    /// When a source is an HTML page, pull the first feed it links in its place (`false`:
    /// `--no-discover`, the page ends `not_a_feed` with the feeds it links).
    public var discoversFeeds = true
    /// What becomes of a feed's HTML fields: sanitized with relative URIs resolved (`safe`, the
    /// default, as the command writes them), as the feed gives them (`raw`), or as plain text.
    public var html = HTMLMode.safe

    /// The command line's defaults, each listed above.
    public init() {}
  }
}

/// The old name of `FeedPuller.Configuration`, whose fields were named after the command's
/// options (`jobs`, `maxBytes`) and whose timeouts were `Double` seconds.
@available(*, deprecated, renamed: "FeedPuller.Configuration")
public typealias PullOptions = FeedPuller.Configuration

/// The library's version, as `feedpull --version` prints it.
public enum FeedPullVersion {
  /// The version, `major.minor.patch`.
  public static let current = "0.2.0"
}
