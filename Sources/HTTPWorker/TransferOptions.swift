import CCurl

/// The libcurl options every transfer gets, from its `TransferRequest` (docs/format.md, options).
enum TransferOptions {
  static func apply(_ request: TransferRequest, to easy: CurlEasy) {
    easy.set(CURLOPT_URL, request.url)
    // Threads and signals do not mix: curl must not use SIGALRM for DNS timeouts.
    easy.set(CURLOPT_NOSIGNAL, 1)
    let timeout = request.timeout.seconds
    if timeout > 0 { easy.set(CURLOPT_TIMEOUT_MS, milliseconds(timeout)) }
    if request.connectTimeout > .zero {
      easy.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.connectTimeout.seconds))
    }
    // A server that stops sending fails well before a long overall timeout would notice.
    let window = min(timeout > 0 ? timeout : .infinity, request.lowSpeedTime.seconds)
    if window > 0, window.isFinite {
      easy.set(CURLOPT_LOW_SPEED_LIMIT, 1)
      easy.set(CURLOPT_LOW_SPEED_TIME, Int(window.rounded(.up)))
    }
    easy.set(CURLOPT_FOLLOWLOCATION, 1)
    // MAXREDIRS defaults to unlimited before curl 8.3 (docs/libraries.md).
    easy.set(CURLOPT_MAXREDIRS, max(0, request.maxRedirects))
    // Only the web: a redirect to file:// or another scheme fails with UNSUPPORTED_PROTOCOL.
    easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
    easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
    // "" asks for every encoding this libcurl decodes (Debian's: gzip, deflate, br, zstd).
    easy.set(CURLOPT_ACCEPT_ENCODING, "")
    easy.set(CURLOPT_USERAGENT, request.userAgent)
    // Proxy CONNECT responses would otherwise look like one more block of response headers.
    easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
    var headers: [String] = []
    if let etag = request.ifNoneMatch { headers.append("If-None-Match: \(etag)") }
    if let date = request.ifModifiedSince { headers.append("If-Modified-Since: \(date)") }
    // A header line with CR or LF would smuggle a second header into the request: dropped.
    for header in request.headers
    where !(header.name + header.value).contains(where: { $0 == "\r" || $0 == "\n" }) {
      headers.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
    }
    if !headers.isEmpty { easy.setHeaders(headers) }
    if let credentials = request.credentials {
      easy.set(CURLOPT_HTTPAUTH, 1)  // CURLAUTH_BASIC, a macro Swift cannot import
      easy.set(CURLOPT_USERNAME, credentials.user)
      easy.set(CURLOPT_PASSWORD, credentials.password)
    }
    if let proxy = request.proxy { easy.set(CURLOPT_PROXY, proxy) }
  }

  private static func milliseconds(_ seconds: Double) -> Int {
    Int((seconds * 1000).rounded(.up))
  }
}
