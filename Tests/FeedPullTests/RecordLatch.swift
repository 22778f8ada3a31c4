import FeedPull
import TestSupport

/// A collector that also signals as records arrive, so tests wait for "the first item" or
/// "every end" with a deadline instead of sleeping.
final class RecordLatch: PullRecordSink {
  let collector = PullRecordCollector()
  let items = EventLatch()
  let ends = EventLatch()

  func receive(_ record: PullRecord) {
    collector.receive(record)
    switch record {
    case .item: items.signal()
    case .end: ends.signal()
    case .feed: break
    }
  }

  func flush() {}

  var records: [PullRecord] { collector.records }

  var itemTitles: [String] {
    records.compactMap {
      if case .item(let item) = $0 { return item.item.title }
      return nil
    }
  }

  var endRecords: [EndRecord] {
    records.compactMap {
      if case .end(let end) = $0 { return end }
      return nil
    }
  }
}

/// An RSS 2.0 document with `count` items titled "Item 0", "Item 1", …
func rssFeed(items count: Int, title: String = "Loopback", from first: Int = 0) -> String {
  let items = (first..<first + count).map {
    "<item><title>Item \($0)</title><link>http://example.com/\($0)</link><guid>\($0)</guid></item>"
  }
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title>"
    + items.joined() + "</channel></rss>"
}
