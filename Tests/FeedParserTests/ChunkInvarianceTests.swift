import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// A document gives the same events and result however its bytes are split into chunks.
@Suite struct ChunkInvarianceTests {
  static let fixtures = fixturePaths()

  /// The repository's sample feeds (feeds/), once that directory exists.
  static let sampleFeeds: [String] = {
    let root = RepositoryPaths.feeds
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else {
      return []
    }
    return names.filter { !$0.hasPrefix(".") }.sorted()
  }()

  @Test func fixturesExist() {
    #expect(Self.fixtures.count >= 20)
  }

  @Test(arguments: fixtures) func fixtureIsChunkInvariant(path: String) throws {
    expectChunkInvariant(try fixture(path), name: path, maxSplitSize: 4096)
  }

  /// JSON Feeds and HTML pages, through the format decision (`FeedDocumentParser`).
  @Test(arguments: documentFixturePaths()) func documentFixtureIsChunkInvariant(path: String)
    throws
  {
    #expect(documentFixturePaths().count >= 14)
    expectDocumentChunkInvariant(try fixture(path), name: path)
  }

  @Test(arguments: sampleFeeds) func sampleFeedIsChunkInvariant(name: String) throws {
    let bytes = Array(try Data(contentsOf: RepositoryPaths.feeds.appendingPathComponent(name)))
    let whole = parse(bytes)
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<5 {
      let sizes = (0..<(bytes.count / 16 + 1)).map { _ in
        Int.random(in: 1...4096, using: &generator)
      }
      #expect(parse(bytes, chunkSizes: sizes) == whole)
    }
    #expect(parse(bytes, chunkSizes: Array(repeating: 7, count: bytes.count / 7 + 1)) == whole)
  }
}

/// xorshift64*: reproducible chunkings without Foundation's random source.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
  mutating func next() -> UInt64 {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return state &* 0x2545_F491_4F6C_DD1D
  }
}
