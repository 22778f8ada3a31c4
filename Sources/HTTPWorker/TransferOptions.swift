import CCurl
import FeedPullSupport

/// The libcurl options every transfer gets, from its `TransferRequest` (docs/format.md, options)
/// and the worker's network policy (docs/security.md).
enum TransferOptions {
  /// `request`'s headers must have passed `RequestHeaderCheck.check` (the worker fails a
  /// request that does not before it reaches curl).
  ///
  /// A handle an earlier transfer used (`reused`) keeps the options every transfer of this
  /// worker shares (`applyShared`); each of the request's own is set whether or not the request
  /// has it, to its value or to curl's default, so that nothing of the transfer before rides
  /// along (a password, a proxy, a header, a timeout).
  static func apply(
    _ request: TransferRequest, policy: NetworkPolicy, to easy: CurlEasy, reused: Bool = false
  ) {
    if !reused { applyShared(policy, to: easy) }
    easy.set(CURLOPT_URL, request.url)
    let timeout = request.timeout.inSeconds
    easy.set(CURLOPT_TIMEOUT_MS, timeout > 0 ? milliseconds(timeout) : 0)
    // 0 is curl's default: 300 s.
    let connectTimeout = request.connectTimeout.inSeconds
    easy.set(CURLOPT_CONNECTTIMEOUT_MS, connectTimeout > 0 ? milliseconds(connectTimeout) : 0)
    // A server that stops sending fails well before a long overall timeout would notice.
    let window = min(timeout > 0 ? timeout : .infinity, request.lowSpeedTime.inSeconds)
    let watchesSpeed = window > 0 && window.isFinite
    easy.set(CURLOPT_LOW_SPEED_LIMIT, watchesSpeed ? 1 : 0)
    easy.set(CURLOPT_LOW_SPEED_TIME, watchesSpeed ? Int(window.rounded(.up)) : 0)
    // MAXREDIRS defaults to unlimited before curl 8.3 (docs/libraries.md).
    easy.set(CURLOPT_MAXREDIRS, max(0, request.maxRedirects))
    easy.set(CURLOPT_USERAGENT, request.userAgent)
    var headers: [String] = []
    headers.reserveCapacity(2 + request.headers.count)
    // The validators are the server's own words from an earlier response; one with a CR, LF
    // or NUL byte would end its line early, so it is left out (the request goes unconditional).
    if let etag = request.ifNoneMatch, RequestHeaderCheck.forbiddenByte(in: etag) == nil {
      headers.append("If-None-Match: " + etag)
    }
    if let date = request.ifModifiedSince, RequestHeaderCheck.forbiddenByte(in: date) == nil {
      headers.append("If-Modified-Since: " + date)
    }
    for header in request.headers {
      headers.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
    }
    // Set, or taken away from a reused handle.
    easy.setHeaders(headers)
    // CURLAUTH_BASIC (1), a macro Swift cannot import, and curl's default.
    easy.set(CURLOPT_HTTPAUTH, 1)
    if let credentials = request.credentials {
      easy.set(CURLOPT_USERNAME, credentials.user)
      easy.set(CURLOPT_PASSWORD, credentials.password)
    } else {
      easy.setNone(CURLOPT_USERNAME)
      easy.setNone(CURLOPT_PASSWORD)
    }
    // None: curl's default, the environment's proxy variables.
    if let proxy = request.proxy {
      easy.set(CURLOPT_PROXY, proxy)
    } else {
      easy.setNone(CURLOPT_PROXY)
    }
    // Over https the server may speak HTTP/2: a transfer that starts while the first
    // connection to its origin is still being set up waits for it and becomes one more stream
    // on it, instead of opening a connection (and a TLS handshake) of its own. Not over plain
    // http, where no connection multiplexes and waiting would only queue transfers behind the
    // first response.
    easy.set(CURLOPT_PIPEWAIT, RedirectPolicy.isHTTPS(request.url) ? 1 : 0)
  }

  /// The options every transfer of a worker shares, set once on each new handle (a string
  /// option is copied, and `PROTOCOLS_STR` parsed, by curl each time it is set).
  private static func applyShared(_ policy: NetworkPolicy, to easy: CurlEasy) {
    // Threads and signals do not mix: curl must not use SIGALRM for DNS timeouts.
    easy.set(CURLOPT_NOSIGNAL, 1)
    easy.set(CURLOPT_FOLLOWLOCATION, 1)
    // Only the web: a redirect to file:// or another scheme fails with UNSUPPORTED_PROTOCOL.
    easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
    easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
    // "" asks for every encoding this libcurl decodes (Debian's: gzip, deflate, br, zstd).
    easy.set(CURLOPT_ACCEPT_ENCODING, "")
    // Proxy CONNECT responses would otherwise look like one more block of response headers.
    easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
    applyTrust(policy.trust, to: easy)
    switch policy.netrc {
    case nil: break
    case .home: easy.set(CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
    case .file(let path):
      easy.set(CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
      easy.set(CURLOPT_NETRC_FILE, path)
    }
  }

  /// A CA file or directory replaces the system's store; with neither, the directory libcurl
  /// was built with is named away so that the bundle alone is used and its parsed store is
  /// cached in the multi handle (`TLSTrust`).
  private static func applyTrust(_ trust: TLSTrust, to easy: CurlEasy) {
    guard trust.verifiesPeer else {
      easy.set(CURLOPT_SSL_VERIFYPEER, 0)
      easy.set(CURLOPT_SSL_VERIFYHOST, 0)
      return
    }
    if let directory = trust.caDirectory {
      easy.set(CURLOPT_CAPATH, directory)
      if trust.caFile == nil { easy.setNone(CURLOPT_CAINFO) }
    } else {
      easy.setNone(CURLOPT_CAPATH)
    }
    if let file = trust.caFile { easy.set(CURLOPT_CAINFO, file) }
  }

  private static func milliseconds(_ seconds: Double) -> Int {
    Int((seconds * 1000).rounded(.up))
  }
}
