import FeedParser
import Foundation
import TestSupport
import Testing

@testable import FeedPull

@Suite struct JSONLinesWriterBatchTests {
  /// The bytes `body` makes a writer write.
  func written(_ body: (JSONLinesWriter) -> Void) throws -> [UInt8] {
    try jsonLinesWritten(body)
  }

  /// Ends of every kind a batch carries (skipped, deferred, cancelled, pulled) and an item, with
  /// a password to mask; enough of them to pass the 64 KiB written out before a flush.
  var records: [PullRecord] {
    (0..<3000).map { index in
      var end = EndRecord(source: "https://user:secret@example.com/\(index).xml")
      switch index % 4 {
      case 0: end.error = PullError(kind: .deferred, message: "held")
      case 1: end.error = PullError(kind: .cancelled, message: "cancelled before it started")
      case 2:
        var item = FeedItem(index: index)
        item.title = "item \(index)"
        return .item(ItemRecord(source: end.source, item: item))
      default:
        end.url = end.source
        end.status = 200
        end.items = index
        end.bytes = 4096
      }
      return .end(end)
    }
  }

  @Test func aBatchWritesTheBytesOfOneRecordAtATime() throws {
    let records = records
    let one = try written { writer in
      for record in records { writer.receive(record) }
    }
    let batched = try written { writer in
      writer.receive(contentsOf: Array(records[..<7]))
      writer.receive(contentsOf: Array(records[7...]))
    }
    #expect(one.count > 1 << 16)
    #expect(batched == one)
  }
}
