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
    let whole = expectChunkInvariant(try fixture("fuzz-finds/" + name), name: name)
    // The fatal-error family ends with `xml`; the windows-1252 find reads to its end.
    if name.hasPrefix("fatal-error") || name.hasPrefix("recovery") {
      #expect(whole.result.failure?.kind == .xml)
    } else {
      #expect(whole.result.failure == nil && whole.result.encoding == "windows-1252")
    }
  }
}
