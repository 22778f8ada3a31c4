import Foundation
import TestSupport
import Testing

@testable import FeedPull

/// Feed discovery over HTTP against the loopback server (a page stands for the feed it links),
/// and JSON Feeds over HTTP with their limits.
@Suite struct FeedDiscoveryHTTPTests {
  static func page(linking href: String, type: String = "application/rss+xml") -> String {
    """
    <!DOCTYPE html><html><head><title>Blog</title>
    <link rel="alternate" type="\(type)" href="\(href)" title="The feed">
    </head><body><p>\(String(repeating: "body text ", count: 100))</p></body></html>
    """
  }

  static let html = [("Content-Type", "text/html; charset=utf-8")]

  func pull(
    _ server: LoopbackHTTPServer, _ path: String,
    options: FeedPuller.Configuration = .forLoopbackTests
  )
    throws -> RecordLatch
  {
    let latch = RecordLatch()
    let puller = try FeedPuller(configuration: options)
    puller.pull([PullSource(server.url(path))], into: latch)
    puller.syncShutdown()
    return latch
  }

  @Test func aPageLeadsToTheFeedItLinks() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/": .ok(Self.page(linking: "/feed.xml"), headers: Self.html),
      "/feed.xml": .ok(rssFeed(items: 2)),
    ])
    let latch = try pull(server, "/")
    let end = try #require(latch.endRecords.first)
    #expect(latch.endRecords.count == 1)
    #expect(end.ok)
    #expect(end.url == server.url("/feed.xml"))
    #expect(end.discoveredFrom == server.url("/"))
    #expect(latch.itemTitles.count == 2)
    #expect(latch.records.allSatisfy { $0.source == server.url("/") })
    guard case .feed(let feed) = latch.records.first else {
      Issue.record("the first record is the feed's")
      return
    }
    #expect(feed.url == server.url("/feed.xml"))
  }

  @Test func aJSONFeedIsDiscoveredAndRead() throws {
    let json = #"{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"1","title":"J"}]}"#
    let server = try LoopbackHTTPServer(routes: [
      "/": .ok(Self.page(linking: "feed.json", type: "application/feed+json"), headers: Self.html),
      "/feed.json": .ok(json, headers: [("Content-Type", "application/feed+json")]),
    ])
    let latch = try pull(server, "/")
    #expect(latch.itemTitles == ["J"])
    #expect(latch.endRecords.first?.ok == true)
  }

  @Test func aPageThatLinksItselfEndsNotAFeed() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/": .ok(Self.page(linking: "/"), headers: Self.html)
    ])
    let latch = try pull(server, "/")
    let end = try #require(latch.endRecords.first)
    #expect(latch.endRecords.count == 1)
    #expect(end.error?.kind == .notAFeed)
    #expect(end.discoveredFrom == server.url("/"))
    #expect(server.requests.count == 2, "the page, and the page once more as its feed")
  }

  @Test func noDiscoverListsTheFeeds() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/": .ok(Self.page(linking: "/feed.xml"), headers: Self.html),
      "/feed.xml": .ok(rssFeed(items: 2)),
    ])
    var options = FeedPuller.Configuration.forLoopbackTests
    options.discoversFeeds = false
    let latch = try pull(server, "/", options: options)
    let end = try #require(latch.endRecords.first)
    #expect(end.error?.kind == .notAFeed)
    #expect(
      end.feeds == [
        LinkedFeed(url: server.url("/feed.xml"), type: "application/rss+xml", title: "The feed")
      ])
    #expect(server.requests.count == 1)
  }

  @Test func anHTTPPageNeverLeadsToALocalFile() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/": .ok(Self.page(linking: "file:///etc/passwd"), headers: Self.html)
    ])
    let latch = try pull(server, "/")
    let end = try #require(latch.endRecords.first)
    #expect(end.error?.kind == .notAFeed)
    #expect(end.feeds.map(\.url) == ["file:///etc/passwd"])
    #expect(latch.itemTitles.isEmpty)
  }

  @Test func theFeedGetsWhatIsLeftOfTheTimeout() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/": HTTPScript(
        headers: Self.html, steps: [.wait(0.6), .send(Array(Self.page(linking: "/slow").utf8))]),
      "/slow": HTTPScript(
        framing: .chunked,
        steps: [
          .send(Array("<rss version=\"2.0\"><channel>".utf8)), .stallForever,
        ]),
    ])
    var options = FeedPuller.Configuration.forLoopbackTests
    options.timeout = .milliseconds(1200)
    let started = Date()
    let latch = try pull(server, "/", options: options)
    let elapsed = Date().timeIntervalSince(started)
    #expect(latch.endRecords.first?.error?.kind == .timeout)
    #expect(latch.endRecords.first?.discoveredFrom == server.url("/"))
    #expect(elapsed < 1.9, "page and feed share one --timeout (took \(elapsed) s)")
    server.stop()
  }

  /// Servers that send a feed as `text/html` are common: the bytes decide, not the header.
  @Test func aFeedServedAsHTMLIsStillAFeed() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": .ok(rssFeed(items: 2), headers: Self.html)
    ])
    let latch = try pull(server, "/feed")
    #expect(latch.endRecords.first?.ok == true)
    #expect(latch.itemTitles.count == 2)
  }

  @Test func aJSONFeedPastMaxBytesKeepsTheItemsWithinIt() throws {
    let items = (0..<200).map {
      #"{"id":"\#($0)","content_text":"\#(String(repeating: "x", count: 100))"}"#
    }
    let json = #"{"version":"1.1","items":["# + items.joined(separator: ",") + "]}"
    let server = try LoopbackHTTPServer(routes: [
      "/feed.json": .ok(json, headers: [("Content-Type", "application/feed+json")])
    ])
    var options = FeedPuller.Configuration.forLoopbackTests
    options.maxNetworkBodyBytes = 4096
    let latch = try pull(server, "/feed.json", options: options)
    let end = try #require(latch.endRecords.first)
    #expect(end.error?.kind == .tooLarge)
    #expect(end.items > 20 && end.items < 40)
    #expect(latch.itemTitles.isEmpty)
  }

  /// yajl holds a string until its closing quote: `--max-bytes` is what bounds it.
  @Test func aJSONStringLongerThanMaxBytesEndsTooLarge() throws {
    let long = String(repeating: "y", count: 300_000)
    let json = #"{"version":"1.1","items":[{"id":"1"},{"id":"2","content_text":""# + long + "\"}]}"
    let server = try LoopbackHTTPServer(routes: [
      "/feed.json": HTTPScript(
        headers: [("Content-Type", "application/feed+json")], framing: .chunked,
        steps: stride(from: 0, to: json.utf8.count, by: 8192).map {
          .send(Array(Array(json.utf8)[$0..<min(json.utf8.count, $0 + 8192)]))
        })
    ])
    var options = FeedPuller.Configuration.forLoopbackTests
    options.maxNetworkBodyBytes = 64 << 10
    let latch = try pull(server, "/feed.json", options: options)
    let end = try #require(latch.endRecords.first)
    #expect(end.error?.kind == .tooLarge)
    #expect(end.items == 1)
    #expect(end.bytes == 64 << 10)
  }

  @Test func theFeedGetsWhatIsLeftOfTheRedirects() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/old": .redirect(302, to: "/"),
      "/": .ok(Self.page(linking: "/moved.xml"), headers: Self.html),
      "/moved.xml": .redirect(302, to: "/feed.xml"),
      "/feed.xml": .ok(rssFeed(items: 1)),
    ])
    var options = FeedPuller.Configuration.forLoopbackTests
    options.maxRedirects = 1
    let latch = try pull(server, "/old", options: options)
    #expect(latch.endRecords.first?.error?.kind == .redirects)
    options.maxRedirects = 2
    #expect(try pull(server, "/old", options: options).endRecords.first?.ok == true)
  }

  /// A page whose head ends early is not read to its end before the feed is pulled.
  @Test func thePageIsReadOnlyUntilItsHeadIsOver() throws {
    let body = Array(repeating: Array(" <p>filler</p>".utf8), count: 20_000).flatMap { $0 }
    let head = Array(Self.page(linking: "/feed.xml").utf8)
    let server = try LoopbackHTTPServer(routes: [
      "/": HTTPScript(
        headers: Self.html, framing: .chunked,
        steps: [.send(head)]
          + stride(from: 0, to: body.count, by: 16384).map {
            .send(Array(body[$0..<min(body.count, $0 + 16384)]))
          }),
      "/feed.xml": .ok(rssFeed(items: 1)),
    ])
    let latch = try pull(server, "/")
    #expect(latch.endRecords.first?.ok == true)
    #expect(latch.itemTitles.count == 1)
    var options = FeedPuller.Configuration.forLoopbackTests
    options.discoversFeeds = false
    let page = try #require(try pull(server, "/", options: options).endRecords.first)
    #expect(page.bytes > 0 && page.bytes <= 64 << 10, "read \(page.bytes) of \(body.count) bytes")
  }
}
