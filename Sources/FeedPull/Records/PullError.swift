/// Why a source did not end `ok`.
///
/// A struct with an open set of kinds rather than an enum, so that a kind added later (as
/// `deferred` was, for subscriptions) does not break a client's exhaustive `switch`: compare
/// with the static members (`error.kind == .timeout`) or `switch` with a `default`.
public struct PullError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The class of failure, written as `error.kind` in JSON Lines.
  public struct Kind: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    private enum Code: String {
      case http, network, dns, timeout, tls
      case tooLarge = "too_large"
      case redirects
      case `protocol`
      case io, xml
      case notAFeed = "not_a_feed"
      case cancelled
      case deferred
      case denied
    }

    private let code: Code

    private init(_ code: Code) { self.code = code }

    /// The kind's name in JSON Lines (`too_large`), or nil for a name this version does not know.
    public init?(rawValue: String) {
      guard let code = Code(rawValue: rawValue) else { return nil }
      self.code = code
    }

    /// The kind's name as written in `error.kind` (`too_large`, `not_a_feed`).
    public var rawValue: String { code.rawValue }
    /// The same name as `rawValue`, for messages.
    public var description: String { code.rawValue }

    /// A status other than 2xx and 304; the body was not parsed.
    public static let http = Kind(.http)
    /// Refused, reset, malformed HTTP, a body shorter than announced.
    public static let network = Kind(.network)
    /// The host name could not be resolved.
    public static let dns = Kind(.dns)
    /// The whole-transfer or connect limit ran out.
    public static let timeout = Kind(.timeout)
    /// The TLS handshake or certificate check failed.
    public static let tls = Kind(.tls)
    /// The body was larger than the limit; the items within it were kept.
    public static let tooLarge = Kind(.tooLarge)
    /// More redirects than allowed.
    public static let redirects = Kind(.redirects)
    /// A scheme, or a redirect to one, other than http, https and file; a redirect from https
    /// to http unless downgrades are allowed.
    public static let `protocol` = Kind(.protocol)
    /// Refused by the network policy: an address it denies (`denyPrivate`, every redirect hop
    /// and discovered feed included), or a local source when only the network may be read.
    public static let denied = Kind(.denied)
    /// A local file could not be read.
    public static let io = Kind(.io)
    /// An empty body or a document whose parse had to stop.
    public static let xml = Kind(.xml)
    /// A document that is not a feed (another XML vocabulary, an HTML page, JSON).
    public static let notAFeed = Kind(.notAFeed)
    /// Cancelled by the caller (or the user's Ctrl-C).
    public static let cancelled = Kind(.cancelled)
    /// Not requested, with subscription state: the site asked to wait (Retry-After) or the
    /// source is gone (410).
    public static let deferred = Kind(.deferred)
  }

  /// The class of failure.
  public var kind: Kind
  /// What happened, for a person.
  public var message: String
  /// For `http`, `redirects`, `protocol`: the last status received.
  public var status: Int?
  /// libcurl's result code (`CURLcode`), when curl reported the failure.
  public var curlCode: Int?

  /// An error of `kind`; `status` only for `http`, `redirects` and `protocol`.
  public init(kind: Kind, message: String, status: Int? = nil, curlCode: Int? = nil) {
    self.kind = kind
    self.message = message
    self.status = status
    self.curlCode = curlCode
  }

  /// `kind: message`, the form feedpull prints on stderr after the SOURCE.
  public var description: String { "\(kind): \(message)" }
}
