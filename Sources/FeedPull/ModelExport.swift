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
