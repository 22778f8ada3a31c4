import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// CDATA content and long plain character data go to the builder directly whenever libxml2 is
/// waiting where they belong (`StreamingFeedParser.route`). That must change nothing: every
/// document gives the same events and result, in any chunking, as when libxml2 reads all text
/// itself.
@Suite struct TextHandOverTests {
  /// Sections where libxml2 reads them, where it does not (prolog, attribute values, after
  /// the root), cut off, empty, with brackets, controls, noncharacters and CR at chunk ends.
  static let long = String(repeating: "long text 日本語 ", count: 8)

  static let documents: [String] = [
    "<rss><channel><item><description><![CDATA[<p>a & b</p>]]></description></item></channel></rss>",
    "<rss><channel><item><description>\n  <![CDATA[x]]]]>\n</description></item></channel></rss>",
    "<rss><channel><title>a<![CDATA[]]>b<![CDATA[c]]>&amp;<![CDATA[]]]>d</title></channel></rss>",
    "<rss><channel><title><![CDATA[cut off inside the section",
    "<rss><channel><title><![CDATA[cut off after a bracket]",
    "<![CDATA[in the prolog]]><rss><channel><title>t</title></channel></rss>",
    "<rss><channel><title>t</title></channel></rss><![CDATA[after the root]]>",
    "<rss><channel><title a='<![CDATA['>x]]></title></channel></rss>",
    "<rss><channel><title><![CDATA[a\u{1}b\r\nc\r]]></title></channel></rss>",
    "<rss><channel><title><![CDATA[\u{FFFE}x\u{FFFF}]]></title></channel></rss>",
    "<rss><channel><title><![CDATA[a</title></channel></rss>",
    // libxml2's message names the line of the open tag: lines inside the section count.
    "<rss><channel><title><![CDATA[a\nb\n\nc]]></title>\n<item><b></item></channel></rss>",
    "<rss><channel><item><title><![CDATA[one]]></title></item><bad<![CDATA[two]]></channel></rss>",
    "<!DOCTYPE rss [<!ENTITY e 'E'>]><rss><channel><title>&e;<![CDATA[&e;]]></title></channel></rss>",
    // Character data long enough to be handed over, with what keeps it from being.
    "<rss><channel><description>\(Self.long) &lt;p&gt; &amp; &quot;&apos; &#233;&#x1F600; \(Self.long)</description></channel></rss>",
    "<rss><channel><description>\(Self.long)\r\n\(Self.long)</description></channel></rss>",
    "<rss><channel><description>\(Self.long) ]]> \(Self.long)</description></channel></rss>",
    "<rss><channel><description>\(Self.long) ]]&gt; ]] > \(Self.long)</description></channel></rss>",
    "<!DOCTYPE rss [<!ENTITY e 'E'>]><rss><channel><title>\(Self.long)&e;\(Self.long)</title></channel></rss>",
    "<rss><channel><title>\(Self.long) &nbsp; AT&T &bogus; \(Self.long)</title></channel></rss>",
    "\(Self.long)<rss><channel><title>t</title></channel></rss>\(Self.long)",
    "<rss><channel><title>t</title></channel></rss>\n<!-- > \(Self.long) --> \(Self.long) &#32; \(Self.long)",
    "<rss><channel><title a='x>\(Self.long)'>\(Self.long)</title><!-- x>\(Self.long)<y> --></channel></rss>",
    "<rss><channel><item><title>\(Self.long)</title>\n<bad<x>\(Self.long)</item></channel></rss>",
    "<rss><channel><title>\(Self.long)</title>\n\(Self.long)\n<item><b>\(Self.long)</item></channel></rss>",
    "<rss><channel><item><description><p>\(Self.long)</p><br>\(Self.long)</description></item></channel></rss>",
    "<rss><channel><title>\(Self.long)",
    // After an error libxml2 drops entity references, even `&amp;` (a fuzzer find).
    "<rss><channel><b></i><title>AT&amp;T \(Self.long) &lt;p&gt; &#233;</title></channel></rss>",
  ]

  @Test(arguments: documents) func sameEventsAsLibXMLReadingTheText(document: String) {
    expectSameAsLibXML(Array(document.utf8), name: document)
  }

  @Test func fixturesFindsAndSampleFeedsGiveTheSameEvents() throws {
    let documents = try everyTestDocument()
    #expect(documents.count > 60)
    for (name, bytes) in documents { expectSameAsLibXML(bytes, name: name, chunkings: 3) }
  }

  /// A section far larger than a chunk streams through: it arrives whole, and libxml2 holds
  /// none of it (2.9.14 would keep all but 300 bytes of each push until `]]>` came).
  @Test func hugeSectionIsNotHeldByLibXML() {
    let text = String(repeating: "日本語 and English <b>text</b> ", count: 40_000)
    let document = Array(
      "<rss><channel><item><description><![CDATA[\(text)]]></description></item></channel></rss>"
        .utf8)
    var items: [FeedItem] = []
    let parser = StreamingFeedParser(documentURL: nil) {
      if case .item(let item) = $0 { items.append(item) }
    }
    var largestHeld = 0
    var offset = 0
    while offset < document.count {
      let end = min(document.count, offset + 65_536)
      parser.parse(Array(document[offset..<end]))
      largestHeld = max(largestHeld, parser.bytesLibXMLHolds)
      offset = end
    }
    #expect(parser.finish().failure == nil)
    #expect(items.first?.summary == text)
    #expect(largestHeld < 1_024)
  }

  private func expectSameAsLibXML(
    _ bytes: [UInt8], name: String, chunkings: Int = 10,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let expected = parse(bytes, handsTextToBuilder: false)
    #expect(parse(bytes) == expected, "\(name) whole", sourceLocation: sourceLocation)
    #expect(
      parse(bytes, chunkSizes: Array(repeating: 1, count: bytes.count)) == expected,
      "\(name) byte by byte", sourceLocation: sourceLocation)
    var generator = SeededGenerator(seed: UInt64(bytes.count))
    for _ in 0..<chunkings {
      let sizes = (0..<bytes.count).map { _ in Int.random(in: 1...700, using: &generator) }
      #expect(
        parse(bytes, chunkSizes: sizes) == expected, "\(name)", sourceLocation: sourceLocation)
    }
  }
}
