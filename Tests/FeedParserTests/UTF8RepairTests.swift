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

  @Test func documentWithInvalidBytesIsReadButNotWellFormed() {
    var bytes = Array("<rss version=\"2.0\"><channel><title>Caf_ ok</title></channel></rss>".utf8)
    bytes[bytes.firstIndex(of: UInt8(ascii: "_"))!] = 0xE9
    let outcome = parse(bytes)
    #expect(outcome.channel?.title == "Caf\u{FFFD} ok")
    #expect(outcome.result == FeedParseResult(wellformed: false, encoding: "utf-8", failure: nil))
    #expect(parse(bytes, chunkSizes: Array(repeating: 1, count: bytes.count)) == outcome)
  }
}
