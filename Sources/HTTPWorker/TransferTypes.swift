/// What a transfer is asked to do, and what it reports: bytes and HTTP, nothing of feeds.

/// One HTTP(S) GET and its limits.
public struct TransferRequest: Sendable {
  /// The http(s) URL to GET.
  public var url: String
  /// Limit on the whole transfer, connecting included; zero means none.
  public var timeout: Duration = .seconds(30)
  /// Limit on connecting.
  public var connectTimeout: Duration = .seconds(10)
  /// A transfer that receives less than 1 byte a second for this long (or for `timeout`, if
  /// shorter) fails with `timeout`; zero turns the check off. Rounded up to whole seconds
  /// (curl's unit).
  public var lowSpeedTime: Duration = .seconds(30)
  /// A body larger than this many bytes (after decompression) fails with `tooLarge`; the first
  /// `maxBodyBytes` bytes are delivered first. Nil means no limit.
  public var maxBodyBytes: Int64? = 64 << 20
  /// Redirects followed; past it, `redirects`. With 0 a 3xx fails with `redirects`.
  public var maxRedirects: Int = 5
  /// The `User-Agent` header.
  public var userAgent: String = "feedpull"
  /// Conditional GET: sent as `If-None-Match` / `If-Modified-Since`; a 304 then finishes with no body.
  public var ifNoneMatch: String?
  /// Sent as `If-Modified-Since`.
  public var ifModifiedSince: String?
  /// More request headers, sent as given (after the worker's own; a name given here replaces
  /// curl's header of that name, e.g. `Accept`).
  public var headers: [HTTPHeader] = []
  /// HTTP basic authentication.
  public var credentials: BasicCredentials?
  /// A proxy URL (`http://host:port`, `socks5h://…`); nil uses the environment's, as curl does.
  public var proxy: String?
  /// A GET of `url` with the default limits (30 s, 10 s to connect, 64 MiB, 5 redirects).
  public init(url: String) { self.url = url }
}

/// One HTTP header line, in order: names may repeat, so headers are a list, not a dictionary.
///
/// A header made to be sent is checked when it is made: its name must be a field name and its
/// value may not hold CR, LF or NUL, so a header that would smuggle another header (or another
/// request) into the connection cannot exist (`RequestHeaderCheck`).
public struct HTTPHeader: Sendable, Hashable, Codable {
  /// The field name, as written.
  public private(set) var name: String
  /// The field value, trimmed.
  public private(set) var value: String

  /// A header to send. Throws when `name` is not a valid field name or `value` holds a CR, LF
  /// or NUL byte: such a header is never sent.
  public init(name: String, value: String) throws(RequestHeaderError) {
    try RequestHeaderCheck.checkName(name)
    try RequestHeaderCheck.checkValue(value, of: name)
    self.name = name
    self.value = value
  }

  /// A header as a server sent it, kept as received.
  init(received name: String, value: String) {
    self.name = name
    self.value = value
  }

  private enum CodingKeys: String, CodingKey { case name, value }

  /// Decoded headers are checked as made ones are, since they may be sent.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .name)
    let value = try container.decode(String.self, forKey: .value)
    do {
      try self.init(name: name, value: value)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .value, in: container, debugDescription: error.description)
    }
  }
}

/// A user name and password for HTTP basic authentication.
public struct BasicCredentials: Sendable, Hashable {
  /// The user name.
  public var user: String
  /// The password.
  public var password: String
  /// Credentials sent as basic authentication; curl does not pass them on to another host
  /// after a redirect.
  public init(user: String, password: String) {
    self.user = user
    self.password = password
  }
}

/// The final response of a redirect chain, known before its first body byte.
public struct TransferResponse: Sendable, Equatable {
  /// The final status code.
  public var status: Int
  /// The URL after redirects.
  public var url: String
  /// True when there was at least one redirect and every hop was 301 or 308.
  public var permanentRedirect: Bool = false
  /// Redirects followed to reach this response (what is left of `maxRedirects` after it).
  public var redirectCount = 0
  /// The `Content-Type` header.
  public var contentType: String?
  /// The `ETag` header exactly, quotes included.
  public var etag: String?
  /// The `Last-Modified` header.
  public var lastModified: String?
  /// Seconds, from `Retry-After` (delta or HTTP date) on a 429 or 503.
  public var retryAfter: Int?
  /// Every header of the final response, in order, for what the fields above do not cover
  /// (`Cache-Control`, `Expires`, `Link`, …).
  public var headers: [HTTPHeader] = []
  /// Seconds the response may be cached: `Cache-Control: max-age`, and `Expires` as seconds
  /// from now (never negative); a subscriber's scheduler reads them.
  public var cacheMaxAge: Int?
  /// `Expires` as seconds from now, never negative.
  public var expiresAfter: Int?
  /// A response with only its status and final URL; the headers are filled in as they are parsed.
  public init(status: Int, url: String) {
    self.status = status
    self.url = url
  }
}

/// Why a transfer failed: the error kinds of docs/format.md that belong to transport.
public struct TransferError: Error, Sendable, Equatable {
  /// The failure's class, named as the output's error kinds.
  public enum Kind: String, Sendable {
    /// A final status other than 2xx and 304; connection failures, malformed HTTP and short bodies;
    /// an unresolved host name; a time limit; a TLS handshake or certificate failure.
    case http, network, dns, timeout, tls
    /// The body passed `maxBodyBytes`; the bytes before the limit were delivered.
    case tooLarge = "too_large"
    /// More redirects than `maxRedirects`.
    case redirects
    /// A URL scheme, or a redirect to one, other than http and https; a redirect from https to
    /// http unless downgrades are allowed; a request header that could not be sent safely.
    case `protocol`
    /// Every address the host resolved to is one the address policy refuses.
    case denied
    /// Cancelled by the caller or by the delegate, queued or in flight.
    case cancelled
  }
  /// The class of failure.
  public var kind: Kind
  /// What happened, for a person.
  public var message: String
  /// For `http`, `redirects`, `protocol`: the last status received.
  public var status: Int?
  /// libcurl's result code (`CURLcode`), when curl reported the failure.
  public var curlCode: Int?
  /// A failure of `kind`; `status` only for `http`, `redirects` and `protocol`.
  public init(kind: Kind, message: String, status: Int? = nil, curlCode: Int? = nil) {
    self.kind = kind
    self.message = message
    self.status = status
    self.curlCode = curlCode
  }
}

/// What is known when a transfer ends, whichever way.
public struct TransferSummary: Sendable, Equatable {
  /// Nil when no response arrived (DNS, connect, TLS failures; cancelled while queued).
  public var response: TransferResponse?
  /// Body bytes delivered, after decompression.
  public var bodyBytes: Int64 = 0
  /// A summary; both are left empty for a transfer that failed before any response.
  public init(response: TransferResponse? = nil, bodyBytes: Int64 = 0) {
    self.response = response
    self.bodyBytes = bodyBytes
  }
}

/// Identifies one transfer on one worker; never reused.
public struct TransferID: Hashable, Sendable, CustomStringConvertible {
  /// The number the worker gave the transfer.
  public let rawValue: UInt64
  /// An id the worker numbered; build one yourself only in tests.
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  /// `transfer#N`, for logs.
  public var description: String { "transfer#\(rawValue)" }
}

/// The delegate's answer to a response.
public enum ResponseDisposition: Sendable {
  /// Go on: the body follows.
  case allow
  /// Cancel now: the transfer fails with `cancelled` and no body is delivered.
  case cancel
}

/// The delegate's answer to a chunk.
public enum ChunkDisposition: Sendable {
  /// The chunk was used; the next one may come.
  case consumed
  /// Not consumed: pause the transfer; the same bytes are delivered again after
  /// `ConnectionWorker.resume(_:)`.
  case pause
}

/// The classic connection delegate. Called on the worker thread, for one transfer, in this order:
/// at most one `didReceive response` (a 2xx or 304 only, before any body byte), body chunks,
/// then exactly one of `didFinish` or `didFail`.
public protocol TransferDelegate: AnyObject {
  /// The final response, once its headers are complete; answer `.cancel` to skip its body.
  func transfer(_ id: TransferID, didReceive response: TransferResponse) -> ResponseDisposition
  /// `chunk` is valid only during the call (it is curl's buffer): copy what you keep.
  func transfer(_ id: TransferID, didReceive chunk: UnsafeRawBufferPointer) -> ChunkDisposition
  /// The transfer ended with its whole body delivered; nothing more comes for `id`.
  func transfer(_ id: TransferID, didFinish summary: TransferSummary)
  /// The transfer failed; `summary` says what arrived before. Nothing more comes for `id`.
  func transfer(_ id: TransferID, didFail error: TransferError, summary: TransferSummary)
}

/// Why a worker could not start: the process is out of file descriptors, or libcurl could not
/// initialise. A library must report this to its host process, never crash it.
public struct WorkerStartError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What happened, for a person.
  public var message: String
  /// An error with a message for a person.
  public init(message: String) { self.message = message }
  /// The message alone, so that the error prints as a sentence.
  public var description: String { message }
}
