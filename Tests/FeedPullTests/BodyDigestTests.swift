import Testing

@testable import FeedPull

/// The body digest tells a source's unchanged body from a changed one: it must not depend on
/// where the transfer cut the body into chunks, and must tell apart bodies that differ in one
/// byte or only in length.
struct BodyDigestTests {
  private static func digest(_ bytes: [UInt8], cuts: [Int]) -> UInt64 {
    var digest = BodyDigest()
    var start = 0
    for cut in cuts + [bytes.count] where cut >= start {
      bytes[start..<cut].withUnsafeBytes { digest.add($0) }
      start = cut
    }
    return digest.value
  }

  private static let body = Array(
    "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title></channel></rss>\n"
      .utf8)

  @Test func chunkBoundariesDoNotChangeTheDigest() {
    let whole = Self.digest(Self.body, cuts: [])
    #expect(Self.digest(Self.body, cuts: Array(1..<Self.body.count)) == whole)
    for cut in 0...Self.body.count {
      #expect(Self.digest(Self.body, cuts: [cut]) == whole, "cut at \(cut)")
    }
    #expect(Self.digest(Self.body, cuts: [3, 5, 6, 19, 20, 21, 40]) == whole)
  }

  @Test func oneByteOrTheLengthChangesTheDigest() {
    let whole = Self.digest(Self.body, cuts: [])
    var seen: Set<UInt64> = [whole]
    for index in Self.body.indices {
      var changed = Self.body
      changed[index] ^= 0x01
      #expect(seen.insert(Self.digest(changed, cuts: [])).inserted, "byte \(index)")
    }
    #expect(Self.digest([], cuts: []) != Self.digest([0], cuts: []))
    #expect(Self.digest([0], cuts: []) != Self.digest([0, 0], cuts: []))
    #expect(
      Self.digest(Array("abcdefgh".utf8), cuts: [])
        != Self.digest(Array("abcdefgh\0".utf8), cuts: []))
  }
}
