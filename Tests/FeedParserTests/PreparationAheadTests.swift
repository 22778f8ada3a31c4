import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// With `preparesAhead`, conversion and repair run on a thread of their own a chunk ahead of
/// the parse. Only the timing may change: every document gives the same events and result.
@Suite struct PreparationAheadTests {
  @Test func sameEventsAsPreparingOnTheCallersThread() throws {
    let documents = try everyTestDocument()
    #expect(documents.count > 60)
    var generator = SeededGenerator(seed: 0xA4EAD)
    for (name, bytes) in documents {
      let expected = parse(bytes)
      #expect(parse(bytes, preparesAhead: true) == expected, "\(name) whole")
      for _ in 0..<3 {
        let sizes = (0..<bytes.count).map { _ in Int.random(in: 1...2_000, using: &generator) }
        #expect(parse(bytes, chunkSizes: sizes, preparesAhead: true) == expected, "\(name)")
      }
    }
  }

  /// Items wait a chunk for the next `parse`, unless the caller catches up first (as a reader
  /// about to wait on a pipe does).
  @Test func catchUpHandsOverWhatTheChunksSoFarComplete() {
    var titles: [String?] = []
    let parser = StreamingFeedParser(documentURL: nil, preparesAhead: true) {
      if case .item(let item) = $0 { titles.append(item.title) }
    }
    parser.parse(Array("<rss version='2.0'><channel><item><title>A</title></item>".utf8))
    parser.catchUp()
    #expect(titles == ["A"])
    parser.parse(Array("<item><title>B</title></item></channel></rss>".utf8))
    #expect(parser.finish() == FeedParseResult(wellformed: true, encoding: "utf-8", failure: nil))
    #expect(titles == ["A", "B"])
  }
}
