import Foundation
import Testing

@testable import FeedParser

/// Smaller readings other parsers' test data showed missing: each a form real feeds write.
@Suite struct ParserPointTests {
  @Test func aWeekdayInAnotherLanguageIsSkipped() {
    for text in [
      "mer, 16 nov 2022 10:00:00 +0100", "Mittwoch, 16 Nov 2022 10:00:00 +0100",
      "mié., 16 nov 2022 10:00:00 +0100", "Wed, 16 Nov 2022 10:00:00 +0100",
    ] {
      #expect(FeedDateParser.parse(text) == 1_668_589_200, "\(text)")
    }
    #expect(FeedDateParser.parse("blah, 16 blah 2022") == nil)
  }

  @Test func itemLanguageAndKeywordsAttributeAndMailtoAuthor() throws {
    let outcome = parse(
      """
      <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><language>en</language>
      <item><title>t</title><dc:language>fr-CA</dc:language>
      <itunes:keywords text="alpha, beta ,gamma"/><author>Jane Roe (mailto:jane@example.com)</author>
      </item></channel></rss>
      """)
    let item = try #require(outcome.items.first)
    #expect(outcome.channel?.language == "en")
    #expect(item.language == "fr-CA")
    #expect(item.itunes?.keywords == ["alpha", "beta", "gamma"])
    #expect(item.authors == [FeedPerson(name: "Jane Roe", email: "jane@example.com")])
  }

  /// RFC 4287 section 4.1.2: an entry alone is a feed of that entry; its `source` is the feed.
  @Test(arguments: [[Int](), [1]])
  func anAtomEntryDocumentIsAFeedOfOneItem(chunking: [Int]) throws {
    let bytes = Array(
      """
      <?xml version="1.0" encoding="utf-8"?>
      <entry xmlns="http://www.w3.org/2005/Atom"><title>Only</title><id>urn:e:1</id>
      <source><title>Origin</title><link href="http://example.org/"/></source></entry>
      """.utf8)
    let outcome = parse(
      bytes, chunkSizes: chunking.isEmpty ? [] : Array(repeating: 1, count: bytes.count))
    #expect(outcome.result.failure == nil)
    #expect(outcome.channel?.version == .atom10)
    #expect(outcome.channel?.title == "Origin")
    #expect(outcome.channel?.link == "http://example.org/")
    #expect(outcome.items.map(\.title) == ["Only"])
    #expect(outcome.items.first?.id == "urn:e:1")
  }

  /// No encoding named and bytes that are not UTF-8: windows-1252, not well-formed, the same
  /// however the bytes arrive.
  @Test(arguments: [[Int](), [1], [4096]])
  func undeclaredBytesThatAreNotUTF8AreWindows1252(chunking: [Int]) throws {
    var bytes = Array("<rss version=\"2.0\"><channel><title>caf".utf8)
    bytes += [0xE9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x80, 0x8C, 0x9F]
    bytes += Array("</title></channel></rss>".utf8)
    let chunks = chunking.isEmpty ? [] : Array(repeating: chunking[0], count: bytes.count)
    let outcome = parse(bytes, chunkSizes: chunks)
    #expect(outcome.channel?.title == "café “q” €ŒŸ")
    #expect(outcome.result.encoding == "windows-1252")
    #expect(!outcome.result.wellformed)
    let utf8 = parse(
      Array("<rss version=\"2.0\"><channel><title>café</title></channel></rss>".utf8))
    #expect(utf8.result.encoding == "utf-8" && utf8.result.wellformed)
    #expect(utf8.channel?.title == "café")
  }
}
