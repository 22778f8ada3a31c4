import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// One parse through `FeedDocumentParser`: the events, how it ended, and an HTML page's feeds.
struct DocumentOutcome: Equatable {
  var events: [FeedEvent]
  var result: FeedParseResult
  var linkedFeeds: [LinkedFeed]?

  var items: [FeedItem] {
    events.compactMap {
      if case .item(let item) = $0 { return item }
      return nil
    }
  }

  var channel: FeedChannel? {
    for case .channel(let channel) in events { return channel }
    return nil
  }
}

/// Parses `bytes` fed in chunks of the given sizes (the rest in one last chunk).
func parseDocument(
  _ bytes: [UInt8], chunkSizes: [Int] = [], documentURL: String? = "http://example.com/page",
  contentType: String? = nil, charset: String? = nil, preparesAhead: Bool = false,
  html: HTMLMode = .safe
) -> DocumentOutcome {
  var events: [FeedEvent] = []
  let parser = FeedDocumentParser(
    documentURL: documentURL, declaredCharset: charset, contentType: contentType, html: html,
    preparesAhead: preparesAhead
  ) { events.append($0) }
  pushInChunks(bytes, chunkSizes) { parser.parse($0) }
  let result = parser.finish()
  return DocumentOutcome(events: events, result: result, linkedFeeds: parser.linkedFeeds)
}

/// The JSON Feed and HTML fixtures, as paths under Tests/Fixtures.
func documentFixturePaths() -> [String] {
  let root = RepositoryPaths.fixtures
  guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
  return enumerator.compactMap { $0 as? String }
    .filter { $0.hasSuffix(".json") || $0.hasSuffix(".html") }.sorted()
}

/// Records an issue unless `bytes` give the same outcome byte by byte, split once at every
/// byte, and in twenty seeded random chunkings as they do whole; returns the whole parse.
@discardableResult
func expectDocumentChunkInvariant(
  _ bytes: [UInt8], name: String, sourceLocation: SourceLocation = #_sourceLocation
) -> DocumentOutcome {
  let whole = parseDocument(bytes)
  #expect(
    parseDocument(bytes, chunkSizes: Array(repeating: 1, count: bytes.count)) == whole,
    "\(name) byte by byte", sourceLocation: sourceLocation)
  for split in 1..<max(1, bytes.count) where parseDocument(bytes, chunkSizes: [split]) != whole {
    Issue.record("\(name) differs when split at byte \(split)", sourceLocation: sourceLocation)
    break
  }
  var generator = SeededGenerator(seed: UInt64(bytes.count))
  for _ in 0..<20 {
    let sizes = (0..<bytes.count).map { _ in Int.random(in: 1...64, using: &generator) }
    #expect(
      parseDocument(bytes, chunkSizes: sizes) == whole, "\(name)", sourceLocation: sourceLocation)
  }
  return whole
}
