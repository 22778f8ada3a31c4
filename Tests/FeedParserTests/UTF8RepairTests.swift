import Testing

@testable import FeedParser

/// Invalid UTF-8 becomes U+FFFD, the same wherever the chunks are cut.
@Suite struct UTF8RepairTests {
  static func repair(_ bytes: [UInt8], chunk: Int) -> (bytes: [UInt8], repaired: Bool) {
    var repair = UTF8Repair()
    var output: [UInt8] = []
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + chunk)
      bytes[offset..<end].withUnsafeBytes { repair.process($0) { output += $0 } }
      offset = end
    }
    repair.finish { output += $0 }
    return (output, repair.repaired)
  }

  static let cases: [([UInt8], String)] = [
    (Array("plain ascii text".utf8), "plain ascii text"),
    (Array("日本語 é €".utf8), "日本語 é €"),
    ([0x43, 0x61, 0x66, 0xE9, 0x21], "Caf\u{FFFD}!"),
    ([0xE6, 0x97, 0x41], "\u{FFFD}A"),
    ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),
    ([0xC0, 0xAF, 0x41], "\u{FFFD}\u{FFFD}A"),
    ([0x41, 0xF0, 0x9F, 0x98], "A\u{FFFD}"),
    // The noncharacters U+FFFE and U+FFFF: valid UTF-8, but no XML characters.
    ([0xEF, 0xBF, 0xBE, 0xEF, 0xBF, 0xBF, 0xEF, 0xBF, 0xBD], "\u{FFFD}\u{FFFD}\u{FFFD}"),
    ([0x41, 0xF0, 0x9F, 0x98, 0x80], "A😀"),
  ]

  @Test(arguments: 0..<cases.count) func sameTextAtEveryChunkSize(index: Int) {
    let (input, expected) = Self.cases[index]
    for chunk in 1...input.count + 1 {
      let (output, repaired) = Self.repair(input, chunk: chunk)
      #expect(String(decoding: output, as: UTF8.self) == expected, "chunk \(chunk)")
      #expect(repaired == expected.contains("\u{FFFD}"))
    }
  }

  /// Random text made mostly of three-byte sequences (the scanner's fast path takes two at a
  /// time) with edge leads (E0, ED, F0, C2) and damaged bytes mixed in: the repair must agree
  /// with the standard library's decoder, which replaces maximal invalid subparts as Unicode
  /// recommends, at any chunking (and the two noncharacters XML forbids are replaced too).
  @Test func agreesWithTheStandardLibraryOnRandomCJKLikeText() {
    var generator = SeededGenerator(seed: 42)
    let pieces: [[UInt8]] = [
      [0xE6, 0x97, 0xA5], [0xE3, 0x81, 0x82], [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0x80],
      [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBD], [0xF0, 0x9F, 0x98, 0x80],
      [0xC2, 0xA9], [0x41], [0x0A], [0x80], [0xE6, 0x97], [0xE6], [0xFF], [0xF4, 0x90, 0x80, 0x80],
      [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF], [0xEF, 0xBC, 0x88], [0xEF, 0xBF],
    ]
    for _ in 0..<400 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 1...40, using: &generator) {
        // Mostly valid CJK, so that long runs reach the two-at-a-time path.
        let index =
          Int.random(in: 0..<4, using: &generator) == 0
          ? Int.random(in: 0..<pieces.count, using: &generator)
          : Int.random(in: 0...1, using: &generator)
        bytes += pieces[index]
      }
      let decoded = String(decoding: bytes, as: UTF8.self).unicodeScalars.map {
        $0 == "\u{FFFE}" || $0 == "\u{FFFF}" ? "\u{FFFD}" : $0
      }
      let expected = Array(String(String.UnicodeScalarView(decoded)).utf8)
      for chunk in [1, 5, 7, bytes.count + 1] {
        #expect(Self.repair(bytes, chunk: chunk).bytes == expected, "\(bytes)")
      }
    }
  }

  /// A document declared UTF-8 with a byte that is not: U+FFFD, not well-formed. (One that
  /// declares nothing is read as windows-1252 from there: `ParserPointTests`.)
  @Test func documentWithInvalidBytesIsReadButNotWellFormed() {
    var bytes = Array(
      "<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel><title>Caf_ ok</title></channel></rss>"
        .utf8)
    bytes[bytes.firstIndex(of: UInt8(ascii: "_"))!] = 0xE9
    let outcome = parse(bytes)
    #expect(outcome.channel?.title == "Caf\u{FFFD} ok")
    #expect(outcome.result == FeedParseResult(wellformed: false, encoding: "utf-8", failure: nil))
    #expect(parse(bytes, chunkSizes: Array(repeating: 1, count: bytes.count)) == outcome)
  }
}
