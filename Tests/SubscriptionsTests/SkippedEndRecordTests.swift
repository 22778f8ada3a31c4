import FeedPull
import Foundation
import TestSupport
import Testing

@testable import Subscriptions

/// A batch of skipped ends is counted from `SkippedEnd.errorKind`, not from the records: the two
/// must agree for every reason a source is not pulled. The `ok` ones go to the sink compactly
/// (`SkippedEndBatch`), and must read and write as their records do.
@Suite struct SkippedEndRecordTests {
  @Test(arguments: [
    SkippedEnd.Why.notDue, .inProgress, .gone, .held(host: "example.com"), .cancelled,
  ])
  func theCountedKindIsTheRecordsKind(_ why: SkippedEnd.Why) {
    let skipped = SkippedEnd(
      source: "https://example.com/feed.xml", why: why, nextCheckAt: .seconds(1_796_126_400),
      reason: nil)
    #expect(skipped.record.error?.kind == skipped.errorKind)
    #expect(skipped.record.ok == (skipped.errorKind == nil))
  }

  /// `ok` skipped ends of every shape: not due with and without a reason, with errors in a row
  /// and a move (a password to mask in each), and in progress; in a slice that does not start at
  /// 0, as a run hands them over.
  static var okEnds: ArraySlice<SkippedEnd> {
    var ends: [SkippedEnd] = [
      SkippedEnd(source: "https://example.com/gone.xml", why: .gone)
    ]
    for index in 0..<2000 {
      let source = "https://user:secret@example.com/\(index).xml?a=\"b\""
      switch index % 4 {
      case 0:
        ends.append(
          SkippedEnd(
            source: source, why: .notDue, nextCheckAt: .seconds(1_796_126_400 + Int64(index)),
            reason: .itemRate))
      case 1:
        ends.append(
          SkippedEnd(source: source, why: .notDue, nextCheckAt: .seconds(1_796_126_401)))
      case 2:
        ends.append(
          SkippedEnd(
            source: source, why: .notDue, nextCheckAt: .seconds(1_796_126_402),
            reason: .errorBackoff,
            errorsInRow: 3, movedTo: "https://user:secret@example.org/moved.xml"))
      default:
        ends.append(SkippedEnd(source: source, why: .inProgress))
      }
    }
    return ends[1...]
  }

  /// The bytes `body` makes a JSON Lines writer write.
  func written(_ body: (JSONLinesWriter) -> Void) throws -> [UInt8] {
    try jsonLinesWritten(body)
  }

  @Test func aCompactSkippedEndWritesTheJSONOfItsRecord() throws {
    let ends = Self.okEnds
    let records = try written { writer in
      writer.receive(contentsOf: ends.map { PullRecord.end($0.record) })
    }
    let compact = try written { writer in
      writer.receive(unpulled: SkippedEndBatch(ends))
    }
    // Past the 64 KiB a writer writes out before a flush.
    #expect(records.count > 1 << 16)
    #expect(compact == records)
    let first = String(decoding: compact.prefix { $0 != 10 }, as: UTF8.self)
    #expect(first.contains(#""skipped":"not_due""#))
  }

  @Test func aSinkThatDoesNotWriteTheBatchReceivesTheRecords() {
    let ends = Self.okEnds
    let collector = PullRecordCollector()
    collector.receive(unpulled: SkippedEndBatch(ends))
    #expect(collector.records == ends.map { PullRecord.end($0.record) })
  }
}
