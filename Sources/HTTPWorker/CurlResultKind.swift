import CCurl

/// Maps a libcurl result to an error kind of docs/format.md: a table, so a new code is a new
/// row.
enum CurlResultKind {
  private static let table: [UInt32: TransferError.Kind] = [
    CURLE_COULDNT_RESOLVE_HOST.rawValue: .dns,
    CURLE_COULDNT_RESOLVE_PROXY.rawValue: .dns,
    CURLE_OPERATION_TIMEDOUT.rawValue: .timeout,
    CURLE_TOO_MANY_REDIRECTS.rawValue: .redirects,
    // A scheme outside CURLOPT_PROTOCOLS_STR / REDIR_PROTOCOLS_STR, e.g. a redirect to file://.
    CURLE_UNSUPPORTED_PROTOCOL.rawValue: .protocol,
    CURLE_SSL_CONNECT_ERROR.rawValue: .tls,
    CURLE_PEER_FAILED_VERIFICATION.rawValue: .tls,
    CURLE_SSL_CERTPROBLEM.rawValue: .tls,
    CURLE_SSL_CIPHER.rawValue: .tls,
    CURLE_SSL_CACERT_BADFILE.rawValue: .tls,
    CURLE_SSL_ENGINE_NOTFOUND.rawValue: .tls,
    CURLE_SSL_ENGINE_SETFAILED.rawValue: .tls,
    CURLE_SSL_ENGINE_INITFAILED.rawValue: .tls,
    CURLE_SSL_SHUTDOWN_FAILED.rawValue: .tls,
    CURLE_SSL_CRL_BADFILE.rawValue: .tls,
    CURLE_SSL_ISSUER_ERROR.rawValue: .tls,
    CURLE_SSL_PINNEDPUBKEYNOTMATCH.rawValue: .tls,
    CURLE_SSL_INVALIDCERTSTATUS.rawValue: .tls,
    CURLE_SSL_CLIENTCERT.rawValue: .tls,
    CURLE_USE_SSL_FAILED.rawValue: .tls,
    CURLE_ABORTED_BY_CALLBACK.rawValue: .cancelled,
    // libcurl 7.88 reports its own buffer limits as out of memory: a response header line over
    // 100 KB, and decompressed bytes held for a paused transfer past 64 MB (a compression
    // bomb decompresses one network read into gigabytes). Both are a response too large.
    CURLE_OUT_OF_MEMORY.rawValue: .tooLarge,
    CURLE_FILESIZE_EXCEEDED.rawValue: .tooLarge,
  ]

  /// Everything else is `network`: refused or reset connections, CURLE_PARTIAL_FILE (a body shorter
  /// than its Content-Length), CURLE_WEIRD_SERVER_REPLY, bad chunked encoding (CURLE_RECV_ERROR),
  /// CURLE_GOT_NOTHING, and the rest of the transport failures.
  static func kind(of code: CURLcode) -> TransferError.Kind {
    table[code.rawValue] ?? .network
  }
}
