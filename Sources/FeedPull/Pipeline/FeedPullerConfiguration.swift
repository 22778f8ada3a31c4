import HTTPWorker

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

    // The network policy (docs/security.md): what a service that pulls URLs it did not choose
    // sets.

    /// Which certificate authorities https servers must chain to (`--cacert`, `--capath`,
    /// `-k`). The command line reads curl's environment variables into it
    /// (`TLSTrust.fromEnvironment`); the library does not, unless its host asks.
    public var trust = TLSTrust()
    /// Refuse to connect to loopback, private, link-local, shared, unique-local, unspecified,
    /// multicast and broadcast addresses, in any spelling and their IPv4-mapped forms, checked
    /// on the address actually connected to for every redirect hop and discovered feed; such a
    /// source ends `denied` (`--deny-private`).
    public var deniesPrivateAddresses = false
    /// Ranges `deniesPrivateAddresses` lets through (`--allow-net CIDR`).
    public var allowedNetworks: [IPNetwork] = []
    /// Follow redirects from https to http (`--allow-downgrade`); by default such a source
    /// ends `protocol` and nothing is sent to the http URL.
    public var allowsDowngrade = false
    /// Refuse local sources (paths, `file:` URLs, `-`) with `denied` (`--network-only`), so that
    /// a list of URLs from users cannot make the process read its own files.
    public var networkOnly = false
    /// Read credentials for hosts whose URL carries none from a `.netrc` file (`--netrc`,
    /// `--netrc-file`).
    public var netrc: NetrcUse?

    /// The command line's defaults, each listed above.
    public init() {}

    /// The address policy the connection worker applies.
    var addressPolicy: AddressPolicy {
      AddressPolicy(deniesPrivate: deniesPrivateAddresses, allowed: allowedNetworks)
    }
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
