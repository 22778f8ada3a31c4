import HTTPWorker

/// One source to pull, with what its caller knows about it: the validators of its last pull, and
/// settings of its own (a feed behind basic authentication, a proxy, a slower server).
///
/// ```swift
/// var source = PullSource("https://example.com/private.xml")
/// source.credentials = BasicCredentials(user: "me", password: "secret")
/// source.headers = [try HTTPHeader(name: "Accept-Language", value: "fr")]
/// source.timeout = .seconds(120)
/// ```
public struct PullSource: Sendable, Hashable {
  /// The SOURCE exactly as given: a URL, a path, or `-`; every record of it carries this.
  public var source: String
  /// Conditional GET: the last `etag`; an unchanged feed then ends `ok`, `notModified`, with no
  /// items.
  public var ifNoneMatch: String?
  /// Conditional GET: the last `last_modified`.
  public var ifModifiedSince: String?
  /// More request headers (http(s) only).
  public var headers: [HTTPHeader] = []
  /// HTTP basic authentication (http(s) only).
  public var credentials: BasicCredentials?
  /// A proxy URL for this source; nil uses the environment's (`https_proxy`, …), as curl does.
  public var proxy: String?
  /// Replaces the configuration's `User-Agent` for this source; set with `setUserAgent(_:)`,
  /// which refuses a value that could not be sent safely.
  public private(set) var userAgent: String?
  /// Replaces the configuration's whole-transfer timeout for this source.
  public var timeout: Duration?
  /// Asks for `EndRecord.bodyDigest`; off by default, so a pull without state pays nothing.
  public var wantsBodyDigest = false

  /// Sets `userAgent` (nil: the configuration's). Throws, and changes nothing, when `value`
  /// holds a CR, LF or NUL byte: it would end the header line and let the rest be read as
  /// another header or request, so it is never sent.
  public mutating func setUserAgent(_ value: String?) throws(RequestHeaderError) {
    if let value { try RequestHeaderCheck.checkValue(value, of: "User-Agent") }
    userAgent = value
  }

  /// A source with the validators of its last pull (nil for a first pull); the other settings
  /// start at the configuration's.
  public init(_ source: String, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil) {
    self.source = source
    self.ifNoneMatch = ifNoneMatch
    self.ifModifiedSince = ifModifiedSince
  }
}
