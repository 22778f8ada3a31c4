import Testing

@testable import Subscriptions

/// Stored keys must hash the same in every process and every release: a change here would make
/// every remembered item new again.
@Suite struct StableHashTests {
  @Test func valuesAreFixed() {
    #expect(StableHash.of("") == StableHash.of(""))
    #expect(StableHash.of("https://example.com/posts/1") == Self.pinned)
  }

  static let pinned: Int64 = -1_461_842_901_068_453_822

  @Test func fieldBoundariesAndAbsenceCount() {
    func hash(_ parts: [String?]) -> UInt64 {
      var hash = StableHash.seed
      for part in parts { StableHash.add(part, to: &hash) }
      return hash
    }
    #expect(hash(["ab", "c"]) != hash(["a", "bc"]))
    #expect(hash([nil, "a"]) != hash(["", "a"]))
    #expect(hash(["12345678", "9"]) != hash(["1234567", "89"]))
    #expect(hash(["a\u{0}"]) != hash(["a"]))
  }
}
