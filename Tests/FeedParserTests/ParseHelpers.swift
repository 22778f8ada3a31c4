import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// One parse: every event handed over, and how the document ended.
struct ParseOutcome: Equatable {
  var events: [FeedEvent]
  var result: FeedParseResult

  var channel: FeedChannel? {
    for case .channel(let channel) in events { return channel }
    return nil
  }

  var items: [FeedItem] {
    events.compactMap {
      if case .item(let item) = $0 { return item }
      return nil
    }
  }
}

/// Parses `bytes` fed in chunks of the given sizes (the rest in one last chunk).
func parse(
  _ bytes: [UInt8], chunkSizes: [Int] = [], documentURL: String? = "http://example.com/feed",
  charset: String? = nil, limits: StreamingFeedParser.Limits = .init(),
  handsTextToBuilder: Bool = true, preparesAhead: Bool = false
) -> ParseOutcome {
  var events: [FeedEvent] = []
  let parser = StreamingFeedParser(
    documentURL: documentURL, declaredCharset: charset, limits: limits,
    preparesAhead: preparesAhead
  ) { events.append($0) }
  parser.handsTextToBuilder = handsTextToBuilder
  pushInChunks(bytes, chunkSizes) { parser.parse($0) }
  let result = parser.finish()
  return ParseOutcome(events: events, result: result)
}

func parse(
  _ text: String, documentURL: String? = "http://example.com/feed", charset: String? = nil
) -> ParseOutcome {
  parse(Array(text.utf8), documentURL: documentURL, charset: charset)
}

/// Every fixture under Tests/Fixtures, as paths relative to it.
func fixturePaths() -> [String] {
  let root = RepositoryPaths.fixtures
  guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
  return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".xml") }.sorted()
}

func fixture(_ path: String) throws -> [UInt8] {
  Array(try Data(contentsOf: RepositoryPaths.fixtures.appendingPathComponent(path)))
}

/// Every document the tests have: the fixtures, the fuzzer's finds and the sample feeds, each
/// with a name for messages.
func everyTestDocument() throws -> [(name: String, bytes: [UInt8])] {
  var documents: [(name: String, bytes: [UInt8])] = []
  for path in fixturePaths() { documents.append((path, try fixture(path))) }
  for (folder, suffix) in [
    (RepositoryPaths.fixtures.appendingPathComponent("fuzz-finds"), ".bin"),
    (RepositoryPaths.feeds, ".xml"),
  ] {
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    where name.hasSuffix(suffix) {
      documents.append((name, Array(try Data(contentsOf: folder.appendingPathComponent(name)))))
    }
  }
  return documents
}

/// A fixture parsed whole, with the document URL a file would have.
func parseFixture(_ path: String, chunkSizes: [Int] = []) throws -> ParseOutcome {
  parse(
    try fixture(path), chunkSizes: chunkSizes,
    documentURL: RepositoryPaths.fixtures.appendingPathComponent(path).absoluteString)
}

/// Records an issue unless `bytes` give the same events and result byte by byte, split once
/// at every byte (for documents up to `maxSplitSize`), and in twenty seeded random chunkings
/// as they do whole; returns the whole parse.
@discardableResult
func expectChunkInvariant(
  _ bytes: [UInt8], name: String, maxSplitSize: Int = .max,
  sourceLocation: SourceLocation = #_sourceLocation
) -> ParseOutcome {
  let whole = parse(bytes)
  #expect(
    parse(bytes, chunkSizes: Array(repeating: 1, count: bytes.count)) == whole,
    "\(name) byte by byte", sourceLocation: sourceLocation)
  if bytes.count <= maxSplitSize {
    for split in 1..<max(1, bytes.count) where parse(bytes, chunkSizes: [split]) != whole {
      Issue.record("\(name) differs when split at byte \(split)", sourceLocation: sourceLocation)
      break
    }
  }
  var generator = SeededGenerator(seed: UInt64(bytes.count))
  for _ in 0..<20 {
    let sizes = (0..<bytes.count).map { _ in Int.random(in: 1...64, using: &generator) }
    #expect(parse(bytes, chunkSizes: sizes) == whole, "\(name)", sourceLocation: sourceLocation)
  }
  return whole
}

/// `bytes` handed to `push` in pieces of `chunkSizes` (the rest in one piece), as a network
/// would deliver them: the parse must not depend on where the pieces end.
func pushInChunks(_ bytes: [UInt8], _ chunkSizes: [Int], _ push: ([UInt8]) -> Void) {
  var offset = 0
  for size in chunkSizes where offset < bytes.count {
    let end = min(bytes.count, offset + size)
    push(Array(bytes[offset..<end]))
    offset = end
  }
  if offset < bytes.count { push(Array(bytes[offset...])) }
}
