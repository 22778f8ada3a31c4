import FeedPull
import Foundation
import Synchronization
import TestSupport
import Testing

/// The README's embedding examples, kept in step with it by hand: if one changes, change
/// both. Run from the repository root's `feeds/`.
@Suite struct ReadmeExampleTests {
  final class Printer: PullRecordSink {
    let titles = Mutex<[String]>([])
    func receive(_ record: PullRecord) {
      if case .item(let item) = record {
        titles.withLock { $0.append(item.title ?? "(untitled)") }
      }
    }
    func flush() {}
  }

  @Test func sinkExample() async throws {
    let server = try LoopbackHTTPServer(routes: [
      "/private.xml": .ok(
        "<rss version='2.0'><channel><item><title>P</title></item></channel></rss>")
    ])
    let printer = Printer()
    let puller = try FeedPuller()
    var source = PullSource(server.url("/private.xml"))
    source.credentials = BasicCredentials(user: "me", password: "secret")
    source.headers = [try HTTPHeader(name: "Accept-Language", value: "fr")]
    let ends = await puller.pull(
      [source, PullSource(RepositoryPaths.feeds.path + "/rss20.xml")], into: printer)
    await puller.shutdown()
    #expect(ends.allSatisfy { $0.ok })
    let titles = printer.titles.withLock { $0 }
    #expect(titles.count == 4)
  }

  @Test func asyncSequenceExample() async throws {
    var lines: [String] = []
    let puller = try FeedPuller()
    for await record in puller.records(RepositoryPaths.feeds.path + "/atom10.xml") {
      switch record {
      case .feed(let feed): lines.append("feed: " + (feed.title ?? ""))
      case .item(let item): lines.append("item: " + (item.title ?? ""))
      case .end(let end):
        lines.append(end.ok ? "ok, \(end.items) items" : "failed: \(end.error?.message ?? "")")
      }
    }
    await puller.shutdown()
    #expect(lines.first?.hasPrefix("feed: ") == true)
    #expect(lines.last?.hasPrefix("ok, ") == true)
    #expect(lines.count >= 3)
  }

  @Test func bytesExample() throws {
    let chunk = try Data(contentsOf: RepositoryPaths.feeds.appendingPathComponent("rss20.xml"))
    var titles: [String] = []
    let parser = FeedStreamParser(documentURL: "https://example.com/feed.xml") { event in
      if case .item(let item) = event { titles.append(item.title ?? "") }
    }
    parser.push(chunk)
    let result = parser.finish()
    #expect(result.failure == nil)
    #expect(titles.count == 3)
  }
}
