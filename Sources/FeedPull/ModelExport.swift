// An embedder that writes `import FeedPull` can name every type a record carries (`FeedItem`,
// `FeedChannel`, `FeedDate`, …) without depending on the parser's target.
@_exported import FeedModel
import FeedParser
import HTTPWorker

/// A request or response header line (name and value, in order).
public typealias HTTPHeader = HTTPWorker.HTTPHeader
/// A user name and password for HTTP basic authentication.
public typealias BasicCredentials = HTTPWorker.BasicCredentials
/// Why a `FeedPuller` could not start (out of file descriptors, libcurl unusable).
public typealias WorkerStartError = HTTPWorker.WorkerStartError
/// The politeness key of a URL: its registrable domain (see `PoliteHost`).
public typealias PoliteHost = HTTPWorker.PoliteHost
/// What becomes of a feed's HTML fields (`FeedPuller.Configuration.html`, `--html`).
public typealias HTMLMode = FeedParser.HTMLMode
/// The plain text of HTML markup, as `--html text` writes it.
public typealias HTMLPlainText = FeedParser.HTMLPlainText
/// The libxml2 this process runs, and whether the parser's text hand-over is on.
public typealias LibXMLVersion = FeedParser.LibXMLVersion
/// The certificate authorities https servers must chain to (`FeedPuller.Configuration.trust`).
public typealias TLSTrust = HTTPWorker.TLSTrust
/// Where credentials may come from besides the URL (`.netrc`).
public typealias NetrcUse = HTTPWorker.NetrcUse
/// A range of addresses, for `FeedPuller.Configuration.allowedNetworks`.
public typealias IPNetwork = HTTPWorker.IPNetwork
/// An IPv4 or IPv6 address.
public typealias IPAddress = HTTPWorker.IPAddress
/// Why a request header was refused (CR, LF or NUL in it).
public typealias RequestHeaderError = HTTPWorker.RequestHeaderError
/// Hides the password in a URL wherever it is written (`user:***@`).
public typealias URLPasswordMask = HTTPWorker.URLPasswordMask
/// The byte checks on request headers (CR, LF, NUL), for callers that check before they build.
public typealias RequestHeaderCheck = HTTPWorker.RequestHeaderCheck
