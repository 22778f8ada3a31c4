import Foundation
import TestSupport
import Testing

@testable import HTTPWorker

/// Statuses, headers and bodies: what the delegate is told for each kind of response, and what
/// the request carried.
@Suite struct ResponseTests {
  @Test func bodyInChunksArrivesInOrderAfterTheResponse() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": HTTPScript(
        headers: [
          ("Content-Type", "application/rss+xml"), ("ETag", "\"abc\""),
          ("Last-Modified", "Tue, 15 Nov 1994 12:45:26 GMT"),
        ],
        steps: [.send(Array("<rss>".utf8)), .wait(0.05), .send(Array("</rss>".utf8))])
    ])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    defer { worker.stop() }
    let log = TransferLog()
    worker.add(TransferRequest(server, "/feed"), delegate: LoggingDelegate(log))
    #expect(log.ended.wait(timeout: 10))
    #expect(log.isWellOrdered)
    #expect(String(decoding: log.body, as: UTF8.self) == "<rss></rss>")
    #expect(log.response?.status == 200)
    #expect(log.response?.etag == "\"abc\"")
    #expect(log.response?.lastModified == "Tue, 15 Nov 1994 12:45:26 GMT")
    #expect(log.response?.contentType == "application/rss+xml")
    #expect(log.response?.url == server.url("/feed"))
    #expect(log.response?.permanentRedirect == false)
    #expect(log.summary?.bodyBytes == 11)
    #expect(log.error == nil)
    #expect(log.threadIDs == [worker.audit.ownerThreadID])
  }

  @Test func requestCarriesUserAgentEncodingsAndConditionalHeaders() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>")])
    var request = TransferRequest(server, "/feed")
    request.userAgent = "feedpull-test/1.0"
    request.ifNoneMatch = "\"v1\""
    request.ifModifiedSince = "Sat, 29 Oct 1994 19:43:31 GMT"
    _ = try runTransfer(request)
    let sent = try #require(server.requests.first)
    #expect(sent.method == "GET")
    #expect(sent.target == "/feed")
    #expect(sent.headers["user-agent"] == "feedpull-test/1.0")
    #expect(sent.headers["if-none-match"] == "\"v1\"")
    #expect(sent.headers["if-modified-since"] == "Sat, 29 Oct 1994 19:43:31 GMT")
    let encodings = Set(
      (sent.headers["accept-encoding"] ?? "").split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
      })
    #expect(encodings.isSuperset(of: ["gzip", "deflate"]))
  }

  @Test func noConditionalHeadersUnlessAsked() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>")])
    _ = try runTransfer(TransferRequest(server, "/feed"))
    let sent = try #require(server.requests.first)
    #expect(sent.headers["if-none-match"] == nil)
    #expect(sent.headers["if-modified-since"] == nil)
  }

  @Test(arguments: [404, 500, 410])
  func errorStatusFailsWithHTTPAndDeliversNoBody(status: Int) throws {
    let html =
      "<html><body><h1>\(status)</h1>" + String(repeating: "x", count: 5000) + "</body></html>"
    let server = try LoopbackHTTPServer(routes: [
      "/feed": .ok(html, headers: [("Content-Type", "text/html")], status: status)
    ])
    let log = try runTransfer(TransferRequest(server, "/feed"))
    #expect(log.error?.kind == .http)
    #expect(log.error?.status == status)
    #expect(log.body.isEmpty)
    #expect(log.response == nil)
    #expect(log.summary?.response?.status == status)
    #expect(log.summary?.bodyBytes == 0)
  }

  @Test func errorStatusWithoutBodyFailsWithHTTP() throws {
    let server = try LoopbackHTTPServer(routes: ["/gone": HTTPScript(status: 500)])
    let log = try runTransfer(TransferRequest(server, "/gone"))
    #expect(log.error?.kind == .http)
    #expect(log.error?.status == 500)
    #expect(log.response == nil)
  }

  @Test func notModifiedReportsResponseThenFinishesWithoutBody() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": HTTPScript(status: 304, headers: [("ETag", "\"v1\"")])
    ])
    var request = TransferRequest(server, "/feed")
    request.ifNoneMatch = "\"v1\""
    let log = try runTransfer(request)
    #expect(log.all.count == 2)
    #expect(log.response?.status == 304)
    #expect(log.response?.etag == "\"v1\"")
    #expect(log.error == nil)
    #expect(log.summary?.bodyBytes == 0)
    #expect(server.requests.first?.headers["if-none-match"] == "\"v1\"")
  }

  @Test func emptyOKStillGetsItsResponse() throws {
    let server = try LoopbackHTTPServer(routes: ["/empty": HTTPScript()])
    let log = try runTransfer(TransferRequest(server, "/empty"))
    #expect(log.response?.status == 200)
    #expect(log.body.isEmpty)
    #expect(log.error == nil)
  }

  @Test func tooManyRequestsCarriesRetryAfterSeconds() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": .ok("slow down", headers: [("Retry-After", "120")], status: 429)
    ])
    let log = try runTransfer(TransferRequest(server, "/feed"))
    #expect(log.error?.kind == .http)
    #expect(log.error?.status == 429)
    #expect(log.summary?.response?.retryAfter == 120)
    #expect(log.body.isEmpty)
  }

  @Test func retryAfterAsHTTPDateBecomesSecondsFromNow() throws {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    let date = formatter.string(from: Date(timeIntervalSinceNow: 3600))
    let server = try LoopbackHTTPServer(routes: [
      "/feed": .ok("busy", headers: [("Retry-After", date)], status: 503)
    ])
    let log = try runTransfer(TransferRequest(server, "/feed"))
    #expect(log.error?.status == 503)
    let seconds = try #require(log.summary?.response?.retryAfter)
    #expect((3590...3601).contains(seconds))
  }

  @Test func hugeResponseHeadersAreRead() throws {
    let big = String(repeating: "a", count: 60_000)
    let server = try LoopbackHTTPServer(routes: [
      "/feed": .ok("<rss/>", headers: [("X-Padding", big), ("ETag", "W/\"big\"")])
    ])
    let log = try runTransfer(TransferRequest(server, "/feed"))
    #expect(log.error == nil)
    #expect(log.response?.etag == "W/\"big\"")
    #expect(log.body == Array("<rss/>".utf8))
  }

  @Test func delegateCancellingTheResponseGetsNoBody() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>")])
    let log = try runTransfer(TransferRequest(server, "/feed")) {
      LoggingDelegate($0, onResponse: { _ in .cancel })
    }
    #expect(log.error?.kind == .cancelled)
    #expect(log.body.isEmpty)
    #expect(log.response?.status == 200)
  }

  @Test func refusedConnectionIsNetworkError() throws {
    let server = try LoopbackHTTPServer(routes: [:])
    let url = server.url("/feed")
    server.stop()
    let log = try runTransfer(TransferRequest(url: url))
    #expect(log.error?.kind == .network)
    #expect(log.error?.message.isEmpty == false)
    #expect(log.summary?.response == nil)
  }

  @Test func unsupportedSchemeIsProtocolError() throws {
    let log = try runTransfer(TransferRequest(url: "ftp://127.0.0.1/feed"))
    #expect(log.error?.kind == .protocol)
  }
}
