import FeedPull
import Foundation
import Synchronization
import TestSupport
import Testing

/// Written as a tool that embeds feedpull would be: `import FeedPull` and nothing else of the
/// package (the test server aside). If an embedder cannot name or build something here, the
/// public API is missing it.
@Suite struct EmbedderTests {
  /// A sink of the embedder's own: it names the model types it receives.
  final class TitleSink: PullRecordSink {
    let state = Mutex<(titles: [String], ends: [EndRecord])>(([], []))
    func receive(_ record: PullRecord) {
      switch record {
      case .item(let record):
        let item: FeedItem = record.item
        state.withLock { $0.titles.append(item.title ?? "") }
      case .end(let end): state.withLock { $0.ends.append(end) }
      case .feed: break
      }
    }
    func flush() {}
  }

  @Test func anEmbedderBuildsRecordsToTestItsOwnSink() {
    var item = FeedItem(index: 0)
    item.title = "Hello"
    item.published = .instant(1_700_000_000)
    var channel = FeedChannel(version: .rss20)
    channel.title = "Channel"
    var end = EndRecord(source: "s")
    end.items = 1
    let sink = TitleSink()
    sink.receive(.feed(FeedRecord(source: "s", url: "https://example.com/", channel: channel)))
    sink.receive(.item(ItemRecord(source: "s", item: item)))
    sink.receive(.end(end))
    #expect(sink.state.withLock { $0.titles } == ["Hello"])
    // The item's and the channel's fields read through their records.
    #expect(ItemRecord(source: "s", item: item).title == "Hello")
    #expect(ItemRecord(source: "s", item: item).published == .instant(1_700_000_000))
    #expect(FeedRecord(source: "s", channel: channel).title == "Channel")
    #expect(sink.state.withLock { $0.ends.first?.ok } == true)
  }

  @Test func asyncPullWithHeadersAndCredentialsOfItsOwn() async throws {
    let server = try LoopbackHTTPServer(routes: [
      "/private.xml": .ok(
        "<rss version='2.0'><channel><title>P</title><item><title>Secret</title></item></channel></rss>",
        headers: [("Content-Type", "application/rss+xml"), ("Cache-Control", "max-age=600")])
    ])
    var source = PullSource(server.url("/private.xml"))
    source.headers = [try HTTPHeader(name: "X-Client", value: "embedder-test")]
    source.credentials = BasicCredentials(user: "me", password: "secret")
    try source.setUserAgent("embedder/1.0")
    source.timeout = .seconds(20)
    let puller = try FeedPuller()
    let sink = TitleSink()
    let ends = await puller.pull([source], into: sink)
    await puller.shutdown()

    #expect(sink.state.withLock { $0.titles } == ["Secret"])
    let end = try #require(ends.first)
    #expect(end.ok)
    #expect(
      end.responseHeaders.contains {
        $0.name.lowercased() == "cache-control" && $0.value == "max-age=600"
      })
    let request = try #require(server.requests.first)
    #expect(request.headers["x-client"] == "embedder-test")
    #expect(request.headers["user-agent"] == "embedder/1.0")
    // "me:secret" in base64.
    #expect(request.headers["authorization"] == "Basic bWU6c2VjcmV0")
  }

  @Test func cancellingThePullingTaskEndsItsSourcesCancelled() async throws {
    let server = try LoopbackHTTPServer(routes: ["/stall": .silent])
    let puller = try FeedPuller()
    let task = Task { await puller.pull([PullSource(server.url("/stall"))], into: TitleSink()) }
    // The task runs on Swift concurrency's cooperative pool, two threads here, which other
    // suites' synchronous tests may hold for a minute or more in a full run: the deadline is
    // for a hang, not for a slow start.
    #expect(await server.requestsReceived.waitAsync(timeout: 300))
    task.cancel()
    let ends = await task.value
    await puller.shutdown()
    #expect(ends.first?.error?.kind == .cancelled)
  }

  @Test func errorKindsCanBeSwitchedOverWithADefault() {
    func describe(_ error: PullError) -> String {
      switch error.kind {
      case .timeout: "slow"
      case .http: "status \(error.status ?? 0)"
      default: error.kind.rawValue
      }
    }
    #expect(describe(PullError(kind: .http, message: "", status: 503)) == "status 503")
    #expect(describe(PullError(kind: .tooLarge, message: "")) == "too_large")
    #expect(PullError.Kind(rawValue: "not_a_feed") == .notAFeed)
    #expect(PullError.Kind(rawValue: "no_such_kind") == nil)
  }

  @Test func bytesTheEmbedderAlreadyHasGoThroughThePublicParser() throws {
    let data = try Data(contentsOf: RepositoryPaths.feeds.appendingPathComponent("rss20.xml"))
    var titles: [String] = []
    var channelTitle: String?
    let parser = FeedStreamParser(documentURL: "https://example.com/feed.xml") { event in
      switch event {
      case .channel(let channel): channelTitle = channel.title
      case .item(let item): titles.append(item.title ?? "")
      }
    }
    // Seven bytes at a time: the outcome must not depend on where chunks fall.
    var offset = 0
    while offset < data.count {
      parser.push(data[offset..<min(offset + 7, data.count)])
      offset += 7
    }
    let result = parser.finish()
    #expect(result.failure == nil && result.wellformed)
    #expect(channelTitle == "Notes from the Workbench")
    #expect(titles.count == 3)
  }

  /// `FeedPuller.Configuration.html` and `FeedStreamParser`'s `html`: what HTML fields become.
  @Test func theHTMLModeIsTheEmbeddersChoice() throws {
    let feed = Array(
      #"<rss version="2.0"><channel><item><description>&lt;b onclick="x()"&gt;Hi&lt;/b&gt; &lt;a href="p"&gt;you&lt;/a&gt;</description></item></channel></rss>"#
        .utf8)
    func summary(_ mode: HTMLMode) -> (String?, String?) {
      var item: FeedItem?
      let parser = FeedStreamParser(documentURL: "https://example.com/f/feed.xml", html: mode) {
        if case .item(let parsed) = $0 { item = parsed }
      }
      parser.push(feed)
      _ = parser.finish()
      return (item?.summary, item?.summaryType)
    }
    #expect(summary(.safe).0 == #"<b>Hi</b> <a href="https://example.com/f/p">you</a>"#)
    #expect(summary(.raw).0 == #"<b onclick="x()">Hi</b> <a href="p">you</a>"#)
    #expect(summary(.text) == ("Hi you", "text/plain"))
    var configuration = FeedPuller.Configuration()
    #expect(configuration.html == .safe)
    configuration.html = .text
    let path = RepositoryPaths.feeds.appendingPathComponent("rss20.xml").path
    let puller = try FeedPuller(configuration: configuration)
    let collector = PullRecordCollector()
    puller.pull([PullSource(path)], into: collector)
    puller.syncShutdown()
    for case .item(let record) in collector.records {
      #expect(record.item.summaryType == nil || record.item.summaryType == "text/plain")
    }
  }

  /// `JSONEncoder` on a record gives the object the command writes for it.
  @Test func aRecordEncodedWithJSONEncoderIsTheCommandsLine() throws {
    let path = RepositoryPaths.feeds.appendingPathComponent("rss20.xml").path
    let cli = try FeedpullProcess.run(["-f", "jsonl", path])
    let cliLines = cli.stdout.split(separator: "\n").map(String.init)

    let puller = try FeedPuller()
    let collector = PullRecordCollector()
    puller.pull([PullSource(path)], into: collector)
    puller.syncShutdown()
    let records = collector.records
    #expect(records.count == cliLines.count)

    let encoder = JSONEncoder()
    for (record, line) in zip(records, cliLines) {
      var encoded = try JSONSerialization.jsonObject(with: encoder.encode(record)) as? [String: Any]
      var expected = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      // Time spent differs between the two runs; everything else must be the same.
      encoded?["elapsed_ms"] = nil
      expected?["elapsed_ms"] = nil
      // Compared as canonical JSON (keys sorted), so key order and escaping styles do not count.
      let canonical = { (object: [String: Any]?) in
        try JSONSerialization.data(withJSONObject: object ?? [:], options: [.sortedKeys])
      }
      #expect(try canonical(encoded) == canonical(expected), "\(record.jsonLine)\n\(line)")
      #expect(record.jsonLine.hasPrefix("{\"type\":"))
    }
  }
}
