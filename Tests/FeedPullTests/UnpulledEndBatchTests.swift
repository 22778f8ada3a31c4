import FeedParser
import Foundation
import TestSupport
import Testing

@testable import FeedPull

/// A batch of ends not pulled, as an embedder's scheduler would hand one over: the writers that
/// write it from names and fields write what they write for its records, and a sink that knows
/// nothing of batches receives the records.
@Suite struct UnpulledEndBatchTests {
  /// Fields of the embedder's own, written through the default `writeAddedFields`.
  struct NextVisit: EndRecordFields, Equatable {
    var at: Int64?
    var note: String?

    func write(to writer: inout EndRecordFieldWriter) {
      writer.field("next_visit_at", instant: at)
      writer.field("note", note)
    }
  }

  struct Visits: UnpulledEndBatch {
    var names: [String]

    var count: Int { names.count }
    func source(at index: Int) -> String { names[index] }
    func addedFields(at index: Int) -> any EndRecordFields {
      NextVisit(at: 1_796_126_400 + Int64(index), note: index % 3 == 0 ? nil : "\"later\"")
    }
  }

  /// Mostly URLs with a password to mask; one empty name (its end has no `source`), and one
  /// with bytes to escape.
  static let batch = Visits(
    names: (0..<1500).map {
      switch $0 {
      case 7: ""
      case 8: "feeds/\"quoted\"\\back\tslash.xml"
      default: "https://u:p@example.com/\($0).xml"
      }
    })

  /// A source streaming items around the batch, so that the text writer's turns are exercised.
  func around(_ sink: some PullRecordSink, batch: (any PullRecordSink) -> Void) {
    var channel = FeedChannel(version: .rss20)
    channel.title = "Speaking"
    sink.receive(.feed(FeedRecord(source: "s.xml", url: nil, channel: channel)))
    var item = FeedItem(index: 0)
    item.title = "first"
    sink.receive(.item(ItemRecord(source: "s.xml", item: item)))
    batch(sink)
    item.title = "second"
    sink.receive(.item(ItemRecord(source: "s.xml", item: item)))
    sink.receive(.end(EndRecord(source: "s.xml")))
  }

  /// The bytes a sink made by `make` writes for the records fed by `body`.
  func written<Sink: PullRecordSink>(
    _ make: (Int32) -> Sink, flush: (Sink) -> Void, _ body: (Sink) -> Void
  ) throws -> [UInt8] {
    try bytesWritten(by: make, flush: flush, body)
  }

  @Test func theJSONWriterWritesABatchAsItsRecords() throws {
    let make = { (descriptor: Int32) in JSONLinesWriter(fileDescriptor: descriptor) }
    let records = try written(make, flush: { $0.flush() }) { writer in
      around(writer) { $0.receive(contentsOf: Self.batch.records) }
    }
    let batched = try written(make, flush: { $0.flush() }) { writer in
      around(writer) { $0.receive(unpulled: Self.batch) }
    }
    #expect(records.count > 1 << 16)
    #expect(batched == records)
  }

  /// A batch is encoded outside the writer's lock and added a part at a time, so another
  /// thread's records may come between its parts: never inside a line, and each side keeps its
  /// own order.
  @Test func recordsFromAnotherThreadFallBetweenWholeLinesOfABatch() throws {
    let rounds = 8
    let alone = try jsonLinesWritten { $0.receive(unpulled: Self.batch) }
    let written = try jsonLinesWritten { writer in
      let done = DispatchGroup()
      DispatchQueue.global().async(group: done) {
        for _ in 0..<rounds { writer.receive(unpulled: Self.batch) }
      }
      for index in 0..<3000 { writer.receive(.end(EndRecord(source: "other/\(index).xml"))) }
      done.wait()
    }
    var others: [[UInt8]] = []
    var batched: [UInt8] = []
    for line in written.split(separator: 10, omittingEmptySubsequences: false).dropLast() {
      if line.starts(with: Array(#"{"type":"end","source":"other/"#.utf8)) {
        others.append(Array(line))
      } else {
        batched += line + [10]
      }
    }
    #expect(batched == Array([[UInt8]](repeating: alone, count: rounds).joined()))
    let expected = try jsonLinesWritten { writer in
      for index in 0..<3000 { writer.receive(.end(EndRecord(source: "other/\(index).xml"))) }
    }
    #expect(others == expected.split(separator: 10).map(Array.init))
  }

  @Test(arguments: [false, true])
  func theTextWriterWritesABatchAsItsRecords(headsQuietSources: Bool) throws {
    var style = TextWriter.Style()
    style.headsQuietSources = headsQuietSources
    let make = { (descriptor: Int32) in TextWriter(fileDescriptor: descriptor, style: style) }
    let records = try written(make, flush: { $0.flush() }) { writer in
      around(writer) { $0.receive(contentsOf: Self.batch.records) }
    }
    let batched = try written(make, flush: { $0.flush() }) { writer in
      around(writer) { $0.receive(unpulled: Self.batch) }
    }
    #expect(String(decoding: records, as: UTF8.self).contains("second"))
    #expect(batched == records)
  }

  @Test func aSinkThatDoesNotKnowBatchesReceivesTheRecords() {
    let collector = PullRecordCollector()
    collector.receive(unpulled: Self.batch)
    let records = collector.records
    #expect(records.count == Self.batch.count)
    guard case .end(let end) = records[4] else {
      Issue.record("not an end: \(records[4])")
      return
    }
    #expect(end.source == "https://u:p@example.com/4.xml")
    #expect(end.ok && end.items == 0 && end.bytes == 0)
    #expect(end.addedFields?.isEqual(to: NextVisit(at: 1_796_126_404, note: "\"later\"")) == true)
  }
}
