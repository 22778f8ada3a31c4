import Foundation
import TestSupport
import Testing

@testable import FeedPull

/// Transfers through the whole pipeline against a loopback server: what a feed reader sees.
@Suite struct HTTPPipelineTests {
  /// Pulls `paths` from `server` and returns the records once every source has ended.
  func pull(
    _ server: LoopbackHTTPServer, _ paths: [String],
    options: FeedPuller.Configuration = .forLoopbackTests
  ) throws -> RecordLatch {
    let latch = RecordLatch()
    let puller = try FeedPuller(configuration: options)
    puller.pull(paths.map { PullSource(server.url($0)) }, into: latch)
    puller.syncShutdown()
    return latch
  }

  @Test func errorStatusWithAnHTMLPageGivesNoItems() throws {
    let page = "<html><body><h1>500 Internal Server Error</h1><p>rss item</p></body></html>"
    let server = try LoopbackHTTPServer(routes: [
      "/feed": .ok(page, headers: [("Content-Type", "text/html")], status: 500)
    ])
    let latch = try pull(server, ["/feed"])
    #expect(latch.records.count == 1, "no feed record and no items for an error page")
    let end = try #require(latch.endRecords.first)
    #expect(end.error == PullError(kind: .http, message: end.error?.message ?? "", status: 500))
    #expect(end.status == 500)
    #expect(end.wellformed == nil)
  }

  @Test func firstItemArrivesWhileTheRestIsStillOnTheWire() throws {
    let head = "<rss version=\"2.0\"><channel><title>Drip</title><item><title>One</title></item>"
    let server = try LoopbackHTTPServer(routes: [
      "/drip": HTTPScript(framing: .chunked, steps: [.send(Array(head.utf8)), .stallForever])
    ])
    let latch = RecordLatch()
    let puller = try FeedPuller(configuration: .forLoopbackTests)
    let batch = puller.start([PullSource(server.url("/drip"))], into: latch) { _ in }
    #expect(latch.items.wait(timeout: 10), "the first item must come before the body ends")
    #expect(latch.endRecords.isEmpty)
    batch.cancel()
    #expect(latch.ends.wait(timeout: 10))
    puller.syncShutdown()
    let end = try #require(latch.endRecords.first)
    #expect(end.error?.kind == .cancelled)
    #expect(end.items == 1, "an item that arrived is kept and counted")
    #expect(latch.itemTitles == ["One"])
  }

  @Test func connectionCutMidItemKeepsTheEarlierItems() throws {
    let body = rssFeed(items: 3)
    let cut = body.range(of: "<item><title>Item 2")!.upperBound
    let server = try LoopbackHTTPServer(routes: [
      "/cut": HTTPScript(
        framing: .declaredLength(body.utf8.count),
        steps: [.send(Array(body[..<cut].utf8)), .reset])
    ])
    let latch = try pull(server, ["/cut"])
    #expect(latch.itemTitles == ["Item 0", "Item 1"])
    let end = try #require(latch.endRecords.first)
    #expect(end.error?.kind == .network)
    #expect(end.items == 2)
  }

  @Test func stalledServerTimesOutWithinTheLimit() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/stall": HTTPScript(
        framing: .chunked, steps: [.send(Array(rssFeed(items: 1).prefix(80).utf8)), .stallForever])
    ])
    var options = FeedPuller.Configuration.forLoopbackTests
    options.timeout = .seconds(1)
    let started = Date()
    let latch = try pull(server, ["/stall"], options: options)
    let elapsed = Date().timeIntervalSince(started)
    #expect(latch.endRecords.first?.error?.kind == .timeout)
    #expect(elapsed >= 0.9 && elapsed < 3, "timed out after \(elapsed) s")
  }

  @Test func notModifiedEndsOkWithNoItems() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": HTTPScript(status: 304, headers: [("ETag", "\"v1\"")])
    ])
    let latch = RecordLatch()
    let puller = try FeedPuller(configuration: .forLoopbackTests)
    puller.pull([PullSource(server.url("/feed"), ifNoneMatch: "\"v1\"")], into: latch)
    puller.syncShutdown()
    let end = try #require(latch.endRecords.first)
    #expect(end.ok && end.notModified && end.items == 0)
    #expect(end.status == 304)
    #expect(latch.records.count == 1)
    #expect(server.requests.first?.headers["if-none-match"] == "\"v1\"")
  }

  @Test func responseHeadersReachTheEndRecord() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/old": .redirect(301, to: "/older"),
      "/older": .redirect(308, to: "/feed"),
      "/feed": .ok(
        rssFeed(items: 2),
        headers: [
          ("Content-Type", "application/rss+xml"), ("ETag", "W/\"abc\""),
          ("Last-Modified", "Sat, 01 Nov 2025 00:00:00 GMT"),
        ]),
    ])
    let latch = try pull(server, ["/old"])
    let end = try #require(latch.endRecords.first)
    #expect(end.ok)
    #expect(end.url == server.url("/feed"))
    #expect(end.permanentRedirect)
    #expect(end.etag == "W/\"abc\"")
    #expect(end.lastModified == "Sat, 01 Nov 2025 00:00:00 GMT")
    #expect(end.contentType == "application/rss+xml")
    #expect(end.items == 2)
    #expect(server.requests.first?.headers["user-agent"] == "feedpull/\(FeedPullVersion.current)")
    let feedURL = latch.records.compactMap {
      if case .feed(let feed) = $0 { return feed.url }
      return nil
    }
    #expect(feedURL == [server.url("/feed")])
  }

  @Test func redirectToAFileIsRefused() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .redirect(302, to: "file:///etc/passwd")])
    let latch = try pull(server, ["/feed"])
    #expect(latch.endRecords.first?.error?.kind == .protocol)
    #expect(latch.records.count == 1)
  }

  @Test func httpCharsetReachesTheParser() throws {
    let text =
      "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>日本語のブログ</title>"
      + "<item><title>ゾウの話</title></item></channel></rss>"
    let bytes = try #require(text.data(using: .shiftJIS))
    let server = try LoopbackHTTPServer(routes: [
      "/sjis": HTTPScript(
        headers: [("Content-Type", "application/xml; charset=Shift_JIS")],
        steps: [.send(Array(bytes))])
    ])
    let latch = try pull(server, ["/sjis"])
    #expect(latch.itemTitles == ["ゾウの話"])
    #expect(latch.endRecords.first?.encoding == "shift_jis")
  }

  /// The rule (docs/format.md) when the HTTP charset and the XML declaration disagree: decode by the
  /// one the bytes are valid in, never print mojibake silently.
  @Test(arguments: [
    ("utf-8", "iso-8859-1", Array("café".utf8), "café"),
    ("utf-8", "iso-8859-1", [0x63, 0x61, 0x66, 0xE9], "café"),
    ("iso-8859-1", "utf-8", Array("café".utf8), "café"),
  ])
  func httpCharsetAndDeclarationDisagree(
    _ httpCharset: String, _ declared: String, _ titleBytes: [UInt8], _ expected: String
  ) throws {
    let body =
      Array("<?xml version=\"1.0\" encoding=\"\(declared)\"?><rss version=\"2.0\"><channel>".utf8)
      + Array("<title>x</title><item><title>".utf8) + titleBytes
      + Array("</title></item></channel></rss>".utf8)
    let server = try LoopbackHTTPServer(routes: [
      "/feed": HTTPScript(
        headers: [("Content-Type", "application/rss+xml; charset=\(httpCharset)")],
        steps: [.send(body)])
    ])
    let latch = try pull(server, ["/feed"])
    #expect(latch.itemTitles == [expected])
    #expect(!(latch.itemTitles.first ?? "").contains("Ã"))
  }

  @Test(arguments: [
    ("<html><head><title>Not a feed</title></head><body><p>hello</p></body></html>", "text/html"),
    ("{\"items\": [{\"title\": \"json\"}]}", "application/json"),
  ])
  func documentsThatAreNotFeeds(_ body: String, _ type: String) throws {
    let server = try LoopbackHTTPServer(routes: ["/x": .ok(body, headers: [("Content-Type", type)])]
    )
    let latch = try pull(server, ["/x"])
    #expect(latch.endRecords.first?.error?.kind == .notAFeed)
    #expect(latch.itemTitles.isEmpty)
  }

  @Test func emptyBodyIsAnXMLError() throws {
    let server = try LoopbackHTTPServer(routes: ["/empty": .ok("")])
    let latch = try pull(server, ["/empty"])
    #expect(latch.endRecords.first?.error?.kind == .xml)
  }

  @Test func gzipBodyIsParsedDecoded() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed.gz": HTTPScript(
        headers: [("Content-Encoding", "gzip")],
        steps: [
          .send(
            Array(
              try Data(
                contentsOf: RepositoryPaths.fixtures.appendingPathComponent("http/feed.xml.gz"))))
        ])
    ])
    let latch = try pull(server, ["/feed.gz"])
    let plain = try Data(
      contentsOf: RepositoryPaths.fixtures.appendingPathComponent("http/feed.xml"))
    let end = try #require(latch.endRecords.first)
    #expect(end.ok)
    #expect(end.bytes == Int64(plain.count))
    #expect(end.items > 0)
  }

  @Test func twoHundredSourcesAtSixteenJobs() throws {
    var routes: [String: HTTPScript] = [:]
    for index in 0..<200 {
      routes["/feed/\(index)"] = .ok(rssFeed(items: 5, title: "Feed \(index)", from: index * 5))
    }
    let server = try LoopbackHTTPServer(routes: routes)
    var options = FeedPuller.Configuration.forLoopbackTests
    options.maxConcurrentTransfers = 16
    let latch = try pull(server, (0..<200).map { "/feed/\($0)" }, options: options)
    let ends = latch.endRecords
    #expect(ends.count == 200)
    #expect(ends.allSatisfy { $0.ok && $0.items == 5 })
    #expect(Set(latch.itemTitles).count == 1000)
    #expect(server.peakConcurrentResponses <= 16)
    // Records of one source stay in order: feed, items by index, end.
    for index in [0, 57, 199] {
      let source = server.url("/feed/\(index)")
      let kinds = latch.records.filter { $0.source == source }.map { record -> String in
        switch record {
        case .feed: "feed"
        case .item(let item): "item\(item.item.index)"
        case .end: "end"
        }
      }
      #expect(kinds == ["feed", "item0", "item1", "item2", "item3", "item4", "end"])
    }
  }
}

/// A sink that stalls once, on its first item, the way a reader of stdout that looks away does.
private final class StallingSink: PullRecordSink {
  let latch = RecordLatch()
  private let stalled = EventLatch()

  func receive(_ record: PullRecord) {
    if case .item = record, stalled.value == 0 {
      stalled.signal()
      // Slowness, not synchronisation: nothing will ever raise this latch.
      EventLatch().wait(timeout: 1)
    }
    latch.receive(record)
  }

  func flush() {}
}

@Suite struct ParseBacklogTests {
  @Test func aStalledSinkPausesTheTransferAndLosesNothing() throws {
    let count = 30_000
    let server = try LoopbackHTTPServer(routes: [
      "/big": HTTPScript(framing: .chunked, steps: [.send(Array(rssFeed(items: count).utf8))])
    ])
    let sink = StallingSink()
    let puller = try FeedPuller(configuration: .forLoopbackTests)
    puller.pull([PullSource(server.url("/big"))], into: sink)
    puller.syncShutdown()
    let indexes = sink.latch.records.compactMap { record -> Int? in
      if case .item(let item) = record { return item.item.index }
      return nil
    }
    #expect(indexes == Array(0..<count))
    #expect(sink.latch.endRecords.first?.ok == true)
  }
}
