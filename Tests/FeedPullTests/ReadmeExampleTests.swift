import FeedPull
import Synchronization
import TestSupport
import Testing

/// The README's two embedding examples, kept in step with it by hand: if one changes, change
/// both. Run from the repository root's `feeds/`.
@Suite struct ReadmeExampleTests {
  final class Printer: PullRecordSink {
    let titles = Mutex<[String]>([])
    func receive(_ record: PullRecord) {
      if case .item(let item) = record {
        titles.withLock { $0.append(item.item.title ?? "(untitled)") }
      }
    }
    func flush() {}
  }

  @Test func delegateExample() throws {
    let printer = Printer()
    let puller = try FeedPuller()
    let ends = puller.pull([PullSource(RepositoryPaths.feeds.path + "/rss20.xml")], into: printer)
    puller.syncShutdown()
    #expect(ends.allSatisfy { $0.ok })
    let titles = printer.titles.withLock { $0 }
    #expect(!titles.isEmpty)
  }

  @Test func asyncExample() async throws {
    var lines: [String] = []
    let puller = try FeedPuller()
    for await record in puller.records(RepositoryPaths.feeds.path + "/atom10.xml") {
      switch record {
      case .feed(let feed): lines.append("feed: " + (feed.channel.title ?? ""))
      case .item(let item): lines.append("item: " + (item.item.title ?? ""))
      case .end(let end):
        lines.append(end.ok ? "ok, \(end.items) items" : "failed: \(end.error?.message ?? "")")
      }
    }
    puller.syncShutdown()
    #expect(lines.first?.hasPrefix("feed: ") == true)
    #expect(lines.last?.hasPrefix("ok, ") == true)
    #expect(lines.count >= 3)
  }
}
