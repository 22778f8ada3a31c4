import FeedPull
import TestSupport
import Testing

/// The embedding API refuses a header value with CR, LF or NUL where it is given: a thrown
/// error, and no request.
@Suite struct RequestHeaderAPITests {
  static let values = ["a\r\nX-Evil: 1", "a\nb", "a\rb", "a\u{0}b"]

  @Test func aPerSourceHeaderOrUserAgentThrows() throws {
    var source = PullSource("https://example.com/feed.xml")
    for value in Self.values {
      #expect(throws: RequestHeaderError.self) { try HTTPHeader(name: "X-Client", value: value) }
      #expect(throws: RequestHeaderError.self) { try source.setUserAgent(value) }
    }
    #expect(source.userAgent == nil)
    try source.setUserAgent("reader/2.0")
    #expect(source.userAgent == "reader/2.0")
  }

  @Test func aConfigurationUserAgentStopsThePullerFromStarting() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed.xml": .ok(rssFeed(items: 1))])
    for value in Self.values {
      var configuration = FeedPuller.Configuration()
      configuration.userAgent = value
      #expect(throws: WorkerStartError.self) { _ = try FeedPuller(configuration: configuration) }
    }
    #expect(server.connectionCount == 0)
  }
}
