import HTTPWorker
import TestSupport
import Testing

/// Redirect chains: the final URL, permanence, limits and schemes that are not allowed.
@Suite struct RedirectTests {
  /// A server where `/hop/N` redirects with `statuses[N]` to `/hop/N+1`, and the last hop is a
  /// feed. Locations are relative; curl resolves them against the current URL.
  private func chainServer(_ statuses: [Int]) throws -> LoopbackHTTPServer {
    var routes: [String: HTTPScript] = ["/hop/\(statuses.count)": .ok("<rss/>")]
    for (index, status) in statuses.enumerated() {
      routes["/hop/\(index)"] = .redirect(status, to: "/hop/\(index + 1)")
    }
    return try LoopbackHTTPServer(routes: routes)
  }

  @Test(arguments: [([301], true), ([301, 308], true), ([301, 302], false), ([307], false)])
  func chainEndsAtFinalURL(statuses: [Int], permanent: Bool) throws {
    let server = try chainServer(statuses)
    let log = try runTransfer(TransferRequest(server, "/hop/0"))
    #expect(log.error == nil)
    #expect(log.response?.url == server.url("/hop/\(statuses.count)"))
    #expect(log.response?.permanentRedirect == permanent)
    #expect(log.body == Array("<rss/>".utf8))
    #expect(server.requests.map(\.target) == (0...statuses.count).map { "/hop/\($0)" })
  }

  @Test func loopFailsWithRedirects() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/a": .redirect(302, to: "/b"), "/b": .redirect(302, to: "/a"),
    ])
    let log = try runTransfer(TransferRequest(server, "/a"))
    #expect(log.error?.kind == .redirects)
    #expect(log.error?.status == 302)
    #expect(log.body.isEmpty)
  }

  @Test func chainLongerThanTheLimitFailsWithRedirects() throws {
    let server = try chainServer([301, 301, 301])
    var request = TransferRequest(server, "/hop/0")
    request.maxRedirects = 2
    let log = try runTransfer(request)
    #expect(log.error?.kind == .redirects)
    #expect(log.error?.status == 301)
    #expect(server.requests.count == 3)
  }

  @Test func chainAtTheLimitSucceeds() throws {
    let server = try chainServer([301, 301])
    var request = TransferRequest(server, "/hop/0")
    request.maxRedirects = 2
    let log = try runTransfer(request)
    #expect(log.error == nil)
  }

  @Test func zeroRedirectsAllowedMakesA302Fail() throws {
    let server = try chainServer([302])
    var request = TransferRequest(server, "/hop/0")
    request.maxRedirects = 0
    let log = try runTransfer(request)
    #expect(log.error?.kind == .redirects)
    #expect(log.error?.status == 302)
    #expect(log.body.isEmpty)
    #expect(log.response == nil)
    #expect(server.requests.count == 1)
  }

  @Test func redirectToFileSchemeIsProtocolErrorAndReadsNothing() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .redirect(302, to: "file:///etc/passwd")])
    let log = try runTransfer(TransferRequest(server, "/feed"))
    #expect(log.error?.kind == .protocol)
    #expect(log.error?.status == 302)
    #expect(log.body.isEmpty)
    #expect(log.response == nil)
  }

  @Test func redirectWithoutLocationIsAnHTTPError() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok("moved?", status: 302)])
    let log = try runTransfer(TransferRequest(server, "/feed"))
    #expect(log.error?.kind == .http)
    #expect(log.error?.status == 302)
  }
}
