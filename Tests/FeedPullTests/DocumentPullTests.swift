import FeedParser
import Foundation
import Testing

@testable import FeedPull

/// The order in which a document ends, which a process that exits at its last `end` relies on.
@Suite struct DocumentPullTests {
  /// Records, with whether the parser watched by `watched` was gone when each `end` came.
  final class EndWatcher: PullRecordSink, @unchecked Sendable {
    // @unchecked: one thread uses it (the test's own), as `DocumentPull` is confined to one.
    weak var watched: FeedDocumentParser?
    var parserAliveAtEnd: [Bool] = []
    var items = 0

    func receive(_ record: PullRecord) {
      switch record {
      case .end: parserAliveAtEnd.append(watched != nil)
      case .item: items += 1
      default: break
      }
    }

    func flush() {}
  }

  /// libxml2's context is freed before the `end` record is written: after the last `end` the
  /// command exits, and exit runs `xmlCleanupParser`, which frees the lock that freeing a
  /// context takes. Freed after the `end`, on a parse thread, it corrupted the heap on rare
  /// exits (docs/worker.md, "Stopping").
  @Test(
    arguments: [
      ("<rss version=\"2.0\"><channel><title>t</title><item><title>a</title></item>", nil),
      ("<rss version=\"2.0\"><channel><item><title>a</title></item></channel></rss>", nil),
      ("<html><head><link rel=alternate type=application/rss+xml href=/f></head>", nil),
      ("{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": [{\"id\": \"1\"}]}", nil),
      ("<rss version=\"2.0\"><channel><item><title>a</title></item>", PullError.Kind.network),
    ] as [(String, PullError.Kind?)])
  func theParserIsFreedBeforeTheEndRecord(_ body: String, _ transportError: PullError.Kind?) {
    let watcher = EndWatcher()
    let document = DocumentPull(source: "test", sink: watcher, maxBytes: nil) { _ in }
    document.begin(documentURL: "https://example.com/feed", charset: nil)
    watcher.watched = document.currentParser
    #expect(watcher.watched != nil)
    Array(body.utf8).withUnsafeBytes { _ = document.consume($0) }
    document.complete(transportError.map { PullError(kind: $0, message: "reset") })
    #expect(watcher.parserAliveAtEnd == [false])
    #expect(document.currentParser == nil)
  }
}
