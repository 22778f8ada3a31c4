import CCurl
import Foundation
import Testing

@testable import HTTPWorker

/// The pure parts: header blocks of a redirect chain, Retry-After, and curl results to kinds.
@Suite struct HeaderAndResultTests {
  private func collect(_ lines: [String]) -> ResponseHeaderCollector {
    var collector = ResponseHeaderCollector()
    for line in lines { collector.take(line: line + "\r\n") }
    return collector
  }

  @Test func onlyTheLastBlockDescribesTheResponse() {
    let collector = collect([
      "HTTP/1.1 301 Moved Permanently", "ETag: \"old\"", "Content-Type: text/html", "",
      "HTTP/1.1 200 OK", "etag:   \"new\"  ", "",
    ])
    let response = collector.response(status: 200, url: "http://127.0.0.1/")
    #expect(response.etag == "\"new\"")
    #expect(response.contentType == nil)
    #expect(response.permanentRedirect)
  }

  @Test func fieldsAreFoundWithoutCaseAndTheLastOfANameCounts() {
    let collector = collect([
      "HTTP/1.1 200 OK", "CONTENT-TYPE: text/plain", "Last-Modified: a", "Cache-Control: no-cache",
      "cOnTeNt-TyPe: application/rss+xml", "ETAG: \"x\"", "LAST-MODIFIED: b", "Expires: 0",
      "Cache-Control: max-age=60", "Locations: /not", "Content-Type2: no", "X-ETag: no", "",
    ])
    let response = collector.response(status: 200, url: "u")
    #expect(response.contentType == "application/rss+xml")
    #expect(response.etag == "\"x\"")
    #expect(response.lastModified == "b")
    #expect(response.cacheMaxAge == 60)
    #expect(response.expiresAfter == 0)
    #expect(collector.location == nil)
    #expect(response.headers.count == 11)
  }

  @Test func interimResponsesAreNotRedirectHops() {
    let collector = collect(["HTTP/1.1 100 Continue", "", "HTTP/1.1 200 OK", ""])
    #expect(collector.hopStatuses.isEmpty)
    #expect(!collector.permanentRedirect)
  }

  @Test(arguments: [([301, 308], true), ([308], true), ([301, 302], false), ([303], false)])
  func permanenceNeedsEveryHopPermanent(hops: [Int], permanent: Bool) {
    let lines = hops.flatMap { ["HTTP/2 \($0)", "location: /next", ""] } + ["HTTP/2 200", ""]
    #expect(collect(lines).permanentRedirect == permanent)
  }

  @Test func retryAfterOnlyForTooManyRequestsAndUnavailable() {
    let collector = collect(["HTTP/1.1 200 OK", "Retry-After: 30", ""])
    #expect(collector.response(status: 200, url: "u").retryAfter == nil)
    #expect(collector.response(status: 429, url: "u").retryAfter == 30)
    #expect(collector.response(status: 503, url: "u").retryAfter == 30)
  }

  @Test func retryAfterForms() throws {
    let now = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
    let parse = { ResponseHeaderCollector.retryAfterSeconds($0, now: now) }
    #expect(parse("0") == 0)
    #expect(parse("86400") == 86400)
    #expect(parse("Sun, 06 Nov 1994 08:50:37 GMT") == 60)
    #expect(parse("Sunday, 06-Nov-94 08:50:37 GMT") == 60)
    #expect(parse("Sun Nov  6 08:50:37 1994") == 60)
    #expect(parse("Sun, 06 Nov 1994 08:00:00 GMT") == 0)
    #expect(parse("-5") == nil)
    #expect(parse("soon") == nil)
  }

  @Test func curlResultsMapToContractKinds() {
    let table: [(CURLcode, TransferError.Kind)] = [
      (CURLE_COULDNT_RESOLVE_HOST, .dns), (CURLE_COULDNT_RESOLVE_PROXY, .dns),
      (CURLE_OPERATION_TIMEDOUT, .timeout), (CURLE_PEER_FAILED_VERIFICATION, .tls),
      (CURLE_SSL_CONNECT_ERROR, .tls), (CURLE_TOO_MANY_REDIRECTS, .redirects),
      (CURLE_UNSUPPORTED_PROTOCOL, .protocol), (CURLE_COULDNT_CONNECT, .network),
      (CURLE_RECV_ERROR, .network), (CURLE_SEND_ERROR, .network), (CURLE_PARTIAL_FILE, .network),
      (CURLE_WEIRD_SERVER_REPLY, .network), (CURLE_GOT_NOTHING, .network),
    ]
    for (code, kind) in table {
      #expect(CurlResultKind.kind(of: code) == kind, "curl code \(code.rawValue)")
    }
  }

  /// The https check every transfer makes on the bytes says what the scheme's string says.
  @Test(arguments: [
    "https://a/x", "HTTPS://a/", " \thttps://a", "Https:x", "http://a/x", "https", "httpss://a",
    "http://https:/", "/https://", "", "ftp://a", "https:",
  ])
  func theHTTPSCheckOnBytesAgreesWithTheScheme(_ url: String) {
    #expect(RedirectPolicy.isHTTPS(url) == (RedirectPolicy.scheme(of: url) == "https"))
  }
}
