import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// Documents the fuzzer found whose outcome once depended on the chunking (Tests/Fixtures/
/// fuzz-finds/README.md): each must now give the same events and result whole, byte by byte,
/// split once anywhere, and in random chunks.
@Suite struct FuzzFindTests {
  static let finds: [String] = {
    let folder = RepositoryPaths.fixtures.appendingPathComponent("fuzz-finds")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".bin") }.sorted()
  }()

  @Test func findsExist() {
    #expect(Self.finds.count >= 19)
  }

  @Test(arguments: finds) func findIsChunkInvariant(name: String) throws {
    let bytes = try fixture("fuzz-finds/" + name)
    let whole = parse(bytes)
    #expect(whole.result.failure?.kind == .xml)
    #expect(parse(bytes, chunkSizes: Array(repeating: 1, count: bytes.count)) == whole)
    for split in 1..<bytes.count where parse(bytes, chunkSizes: [split]) != whole {
      Issue.record("\(name) differs when split at byte \(split)")
      break
    }
    var generator = SeededGenerator(seed: UInt64(bytes.count))
    for _ in 0..<20 {
      let sizes = (0..<bytes.count).map { _ in Int.random(in: 1...64, using: &generator) }
      #expect(parse(bytes, chunkSizes: sizes) == whole)
    }
  }
}
