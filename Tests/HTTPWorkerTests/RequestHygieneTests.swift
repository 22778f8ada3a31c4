import FeedPullSupport
import Foundation
import HTTPWorker
import TestSupport
import Testing

/// Header bytes (CR, LF, NUL) never reach a request, the downgrade rule, and password masking:
/// the worker's own checks, as pure functions and against a loopback server.
@Suite struct RequestHygieneTests {
  static let forbidden: [(String, UInt8)] = [
    ("a\rb", 0x0D), ("a\nb", 0x0A), ("a\r\nX-Evil: 1", 0x0D), ("a\u{0}b", 0x00),
    ("x\r\nContent-Length: 0\r\n\r\nGET /smuggled.xml HTTP/1.1", 0x0D),
  ]

  @Test func headerValuesAreCheckedByTheByteNotByTheCharacter() {
    // "\r\n" is one Character in Swift: a check on Characters "\r" and "\n" let it through.
    #expect("a\r\nb".contains(where: { $0 == "\r" || $0 == "\n" }) == false)
    for (value, byte) in Self.forbidden {
      #expect(RequestHeaderCheck.forbiddenByte(in: value) == byte, "\(value.debugDescription)")
      #expect(throws: RequestHeaderError.self) { try HTTPHeader(name: "X-Test", value: value) }
    }
    #expect(RequestHeaderCheck.forbiddenByte(in: "feedpull/1.0 (+https://example.com)") == nil)
  }

  @Test func headerNamesMustBeTokens() throws {
    for name in ["X Test", "X:Test", "", "X\r\nY", "Ünï"] {
      #expect(throws: RequestHeaderError.self, "\(name.debugDescription)") {
        try HTTPHeader(name: name, value: "v")
      }
    }
    let header = try HTTPHeader(name: "X-Custom_1.2~", value: "v")
    #expect(header.name == "X-Custom_1.2~")
  }

  @Test func aDecodedHeaderIsCheckedAsAMadeOne() throws {
    let bad = Data(#"{"name":"X-Test","value":"a\r\nX-Evil: 1"}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(HTTPHeader.self, from: bad) }
    let good = Data(#"{"name":"X-Test","value":"a b"}"#.utf8)
    #expect(try JSONDecoder().decode(HTTPHeader.self, from: good).value == "a b")
  }

  @Test func aRequestWithABadUserAgentIsNeverSent() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>")])
    for (value, _) in Self.forbidden {
      var request = TransferRequest(server, "/feed")
      request.userAgent = value
      let log = try runTransfer(request)
      #expect(log.error?.kind == .protocol, "\(value.debugDescription)")
      #expect(log.error?.message.contains("User-Agent") == true)
    }
    #expect(server.connectionCount == 0)
    #expect(server.requests.isEmpty)
  }

  @Test func validatorsTheServerSentWithACRAreLeftOut() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>")])
    var request = TransferRequest(server, "/feed")
    request.ifNoneMatch = "\"v1\"\rX-Evil: 1"
    request.ifModifiedSince = "Sat, 29 Oct 1994 19:43:31 GMT\r\nX-Evil: 2"
    let log = try runTransfer(request)
    #expect(log.error == nil)
    let sent = try #require(server.requests.first)
    #expect(sent.headers["x-evil"] == nil)
    #expect(sent.headers["if-none-match"] == nil)
    #expect(sent.headers["if-modified-since"] == nil)
  }

  /// The worker reuses an ended transfer's easy handle (reset) for the next one: nothing of the
  /// earlier request may ride along (validators, credentials, a header of its own, its agent).
  @Test func aReusedHandleCarriesNothingOfTheTransferBefore() throws {
    let server = try LoopbackHTTPServer(routes: ["/a": .ok("<rss/>"), "/b": .ok("<rss/>")])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    defer { worker.stop() }
    var first = TransferRequest(server, "/a")
    first.ifNoneMatch = "\"v1\""
    first.ifModifiedSince = "Sat, 29 Oct 1994 19:43:31 GMT"
    first.credentials = BasicCredentials(user: "user", password: "secret")
    first.headers = [try HTTPHeader(name: "X-First", value: "1")]
    first.userAgent = "first-agent"
    for request in [first, TransferRequest(server, "/b")] {
      let log = TransferLog()
      worker.add(request, delegate: LoggingDelegate(log))
      #expect(log.ended.wait(timeout: 10), "transfer did not end")
      #expect(log.error == nil)
    }
    #expect(server.requests.count == 2)
    let sent = try #require(server.requests.last)
    #expect(sent.target == "/b")
    for name in ["if-none-match", "if-modified-since", "authorization", "x-first"] {
      #expect(sent.headers[name] == nil, "\(name) carried over")
    }
    #expect(sent.headers["user-agent"] != "first-agent")
    #expect(server.requests.first?.headers["x-first"] == "1")
  }

  /// The same for what a reused handle keeps besides headers: a proxy and short timeouts of
  /// the transfer before do not apply to the next, which has no limits and pauses 1.5 s in its
  /// body (under the first's 1 s limits it would fail).
  @Test func aReusedHandleCarriesNoProxyOrTimeoutOfTheTransferBefore() throws {
    let slow = HTTPScript(steps: [
      .send(Array("<rss>".utf8)), .wait(1.5), .send(Array("</rss>".utf8)),
    ])
    let server = try LoopbackHTTPServer(routes: ["/a": .ok("<rss/>"), "/slow": slow])
    let proxy = try LoopbackHTTPServer(routes: [:], responder: { _ in .ok("<rss/>") })
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    defer { worker.stop() }
    var first = TransferRequest(server, "/a")
    first.proxy = "http://127.0.0.1:\(proxy.port)"
    first.timeout = .seconds(1)
    first.lowSpeedTime = .seconds(1)
    // No limits of its own: a limit the first left behind would be the only one.
    var second = TransferRequest(server, "/slow")
    second.timeout = .zero
    second.lowSpeedTime = .zero
    for request in [first, second] {
      let log = TransferLog()
      worker.add(request, delegate: LoggingDelegate(log))
      #expect(log.ended.wait(timeout: 10), "transfer did not end")
      #expect(log.error == nil)
    }
    #expect(proxy.requests.count == 1)
    #expect(server.requests.map(\.target) == ["/slow"])
  }

  @Test(arguments: [
    ("https://a/x", "http://a/y", true), ("https://a/x", "HTTP://b/", true),
    ("https://a/x", " http://a/y", true), ("https://a/x", "/y", false),
    ("https://a/x", "//b/y", false), ("https://a/x", "https://b/", false),
    ("http://a/x", "http://b/", false), ("http://a/x", "https://b/", false),
    ("https://a/x", "ftp://b/", false),
  ])
  func downgradesAreHTTPSToHTTP(_ from: String, _ to: String, _ downgrade: Bool) {
    #expect(RedirectPolicy.isDowngrade(from: from, to: to) == downgrade)
  }

  @Test(arguments: [
    ("https://user:secret@host/feed", "https://user:***@host/feed"),
    ("https://user@host/feed", "https://user@host/feed"),
    ("https://host/@user.rss", "https://host/@user.rss"),
    ("https://host:8080/@user.rss", "https://host:8080/@user.rss"),
    ("https://a:b@c@host/x", "https://a:***@host/x"),
    ("http://u:p%40ss@127.0.0.1:8080/f?q=1", "http://u:***@127.0.0.1:8080/f?q=1"),
    ("feeds/local.xml", "feeds/local.xml"), ("-", "-"),
  ])
  func passwordsAreMaskedAndNothingElseChanges(_ url: String, _ shown: String) {
    #expect(URLPasswordMask.masked(url) == shown)
  }

  @Test func userInfoIsTakenOutForResolvingAndPutBackOnlyOnTheSameSite() {
    let page = "https://me:secret@blog.example/index.html"
    #expect(URLPasswordMask.withoutUserInfo(page) == "https://blog.example/index.html")
    #expect(
      URLPasswordMask.restoringUserInfo(of: page, in: "https://blog.example/feed.xml")
        == "https://me:secret@blog.example/feed.xml")
    #expect(
      URLPasswordMask.restoringUserInfo(of: page, in: "https://other.example/feed.xml")
        == "https://other.example/feed.xml")
    #expect(
      URLPasswordMask.restoringUserInfo(of: page, in: "http://blog.example/feed.xml")
        == "http://blog.example/feed.xml")
  }
}
