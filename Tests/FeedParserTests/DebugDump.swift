import Foundation
import Testing

@testable import FeedParser

/// `FEEDPARSER_DUMP=/path/file.xml swift test --filter dumpDocument` prints what the parser
/// makes of a file, with its first XML error: a tool for investigating a feed, not a check.
@Test func dumpDocument() throws {
  guard let path = ProcessInfo.processInfo.environment["FEEDPARSER_DUMP"] else { return }
  let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  var events: [FeedEvent] = []
  let parser = StreamingFeedParser(documentURL: "file://" + path) { events.append($0) }
  parser.parse(bytes)
  let result = parser.finish()
  for event in events { print(event) }
  print(result)
  print("first error:", parser.firstXMLError ?? "none")
}

/// `FEEDPARSER_BENCH=/path/big.xml swift test -c release -Xswiftc -enable-testing --filter
/// benchmarkDocument` prints the parser's throughput on a file fed in 64 KiB chunks (the C
/// baseline is the same SAX push loop with empty callbacks). A measuring tool, not a check.
@Test func benchmarkDocument() throws {
  guard let path = ProcessInfo.processInfo.environment["FEEDPARSER_BENCH"] else { return }
  let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  let clock = ContinuousClock()
  for _ in 0..<3 {
    var items = 0
    let elapsed = clock.measure {
      let parser = StreamingFeedParser(documentURL: "file://" + path) { event in
        if case .item = event { items += 1 }
      }
      var offset = 0
      while offset < bytes.count {
        let end = min(bytes.count, offset + 65536)
        bytes[offset..<end].withUnsafeBytes { parser.parse($0) }
        offset = end
      }
      _ = parser.finish()
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(
      "\(items) items, \(bytes.count) bytes in \(seconds) s: \(Double(bytes.count) / seconds / 1e6) MB/s"
    )
  }
}
