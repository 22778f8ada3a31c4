import CCurl

/// The libcurl options every transfer gets, from its `TransferRequest` (docs/format.md, "Command line").
enum TransferOptions {
  static func apply(_ request: TransferRequest, to easy: CurlEasy) {
    easy.set(CURLOPT_URL, request.url)
    // Threads and signals do not mix: curl must not use SIGALRM for DNS timeouts.
    easy.set(CURLOPT_NOSIGNAL, 1)
    if request.timeout > 0 { easy.set(CURLOPT_TIMEOUT_MS, milliseconds(request.timeout)) }
    if request.connectTimeout > 0 {
      easy.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.connectTimeout))
    }
    // A server that stops sending fails well before a long overall timeout would notice.
    let window = min(request.timeout > 0 ? request.timeout : .infinity, request.lowSpeedTime)
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
    if !headers.isEmpty { easy.setHeaders(headers) }
  }

  private static func milliseconds(_ seconds: Double) -> Int {
    Int((seconds * 1000).rounded(.up))
  }
}
