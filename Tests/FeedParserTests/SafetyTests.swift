import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// Entities, external resources and nesting: what a hostile document must not achieve.
@Suite struct SafetyTests {
  /// 10 levels of 10 references: 10^9 "lol"s if expanded.
  static let billionLaughs: String = {
    var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [\n<!ENTITY lol0 \"lol\">\n"
    for level in 1...9 {
      let refs = String(repeating: "&lol\(level - 1);", count: 10)
      text += "<!ENTITY lol\(level) \"\(refs)\">\n"
    }
    text += "]>\n<rss version=\"2.0\"><channel><title>&lol9;</title></channel></rss>\n"
    return text
  }()

  @Test func billionLaughsEndsFastWithXMLFailure() {
    let started = threadCPUTime()
    let outcome: ParseOutcome? = parse(Self.billionLaughs)
    let elapsed = threadCPUTime() - started
    #expect(outcome?.result.failure?.kind == .xml)
    #expect(outcome?.result.wellformed == false)
    #expect(outcome?.channel?.title == nil)
    #expect(elapsed < .seconds(5))
  }

  @Test func quadraticBlowupEndsWithXMLFailure() {
    let big = String(repeating: "x", count: 100_000)
    let refs = String(repeating: "&big;", count: 20_000)
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE rss [<!ENTITY big "\(big)">]>
      <rss version="2.0"><channel><title>\(refs)</title></channel></rss>
      """
    let outcome = parse(text)
    #expect(outcome.result.failure?.kind == .xml)
    #expect(outcome.result.failure?.message.contains("entity") == true)
  }

  @Test func smallInternalEntitiesAreExpandedOnceEach() {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE rss [<!ENTITY who "Jo &amp; Co"><!ENTITY both "&who;/&who;">]>
      <rss version="2.0"><channel><title>&both;</title><item><title>&who;</title></item></channel></rss>
      """
    let outcome = parse(text)
    #expect(outcome.result.failure == nil)
    #expect(outcome.result.wellformed)
    #expect(outcome.channel?.title == "Jo & Co/Jo & Co")
    #expect(outcome.items.first?.title == "Jo & Co")
  }

  @Test func externalEntityAndDTDAreNeverRead() throws {
    let canary = "/tmp/feedparser-canary-\(getpid()).txt"
    let secret = "CANARY-\(UInt64.random(in: 1...UInt64.max))"
    try secret.write(toFile: canary, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: canary) }
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE rss SYSTEM "file://\(canary)" [
      <!ENTITY leak SYSTEM "file://\(canary)">
      <!ENTITY % pleak SYSTEM "file://\(canary)">
      %pleak;
      ]>
      <rss version="2.0"><channel><title>before &leak; after</title>
      <item><title>&leak;</title><description>x&leak;y</description></item></channel></rss>
      """
    var events: [FeedEvent] = []
    let parser = StreamingFeedParser(documentURL: "file:///tmp/feed.xml") { events.append($0) }
    parser.parse(Array(text.utf8))
    let result = parser.finish()
    #expect(!"\(events)".contains(secret))
    #expect(!"\(result)".contains(secret))
    let outcome = ParseOutcome(events: events, result: result)
    #expect(outcome.channel?.title == "before  after")
    #expect(outcome.items.first?.summary == "xy")
  }

  @Test func deepNestingStopsAtTheLimit() {
    let depth = 100_000
    var bytes = Array("<rss version=\"2.0\"><channel>".utf8)
    bytes += Array(String(repeating: "<a>", count: depth).utf8)
    bytes += Array(String(repeating: "</a>", count: depth).utf8)
    bytes += Array("</channel></rss>".utf8)
    let outcome = parse(bytes, chunkSizes: Array(repeating: 4096, count: bytes.count / 4096))
    #expect(outcome.result.failure?.kind == .xml)
    #expect(outcome.result.failure?.message.contains("512") == true)
  }

  @Test func nestingAtTheLimitIsAllowed() {
    // Root (1) + channel (2) + 510 more = 512.
    let inner = 510
    let text =
      "<rss version=\"2.0\"><channel>" + String(repeating: "<a>", count: inner)
      + String(repeating: "</a>", count: inner) + "<title>ok</title></channel></rss>"
    let outcome = parse(text)
    #expect(outcome.result.failure == nil)
    #expect(outcome.channel?.title == "ok")
  }

  /// An element keeps up to `maxAttributes` attributes; past that the first ones are kept,
  /// the document is not well-formed, and every item after it is read, whether the element is
  /// handed over or libxml2 reads it (whole, and in chunks that cut it anywhere).
  @Test(arguments: [[Int](), [4096], [7], [1]])
  func elementsWithTooManyAttributesKeepTheFirstAndReadOn(chunking: [Int]) throws {
    func feed(attributes: Int) -> [UInt8] {
      let many = (0..<attributes).map { "a\($0)=\"1\"" }.joined(separator: " ")
      return Array(
        """
        <rss version="2.0"><channel><title>T</title><item><title>before</title></item>
        <item><title>x</title><enclosure url="http://e/1.mp3" \(many) type="audio/mpeg"/></item>
        <item><title>after</title></item></channel></rss>
        """.utf8)
    }
    func chunks(_ bytes: [UInt8]) -> [Int] {
      chunking.isEmpty ? [] : Array(repeating: chunking[0], count: bytes.count / chunking[0] + 1)
    }
    let allowed = feed(attributes: 1022)
    let fine = parse(allowed, chunkSizes: chunks(allowed))
    #expect(fine.result.failure == nil && fine.result.wellformed)
    #expect(fine.items.map(\.title) == ["before", "x", "after"])
    #expect(fine.items[1].enclosures.first?.type == "audio/mpeg", "the 1,024th is kept")
    let over = feed(attributes: 1023)
    let cut = parse(over, chunkSizes: chunks(over))
    #expect(cut.result.failure == nil)
    #expect(!cut.result.wellformed)
    #expect(cut.items.map(\.title) == ["before", "x", "after"])
    let enclosure = try #require(cut.items[1].enclosures.first)
    #expect(enclosure.url == "http://e/1.mp3")
    #expect(enclosure.type == nil, "the 1,025th attribute is dropped")
  }

  /// One start tag with 300,000 attributes (2.4 MB): libxml2 would compare them pair by pair
  /// once the tag had arrived (about 20 s, release build); the parse counts the tag while
  /// libxml2 gathers it, drops the rest of it, and reads on.
  @Test(arguments: [65_536, 4096, 1_000_000, 3_000_000])
  func aHugeStartTagIsCutFastAndTheDocumentReadsOn(chunk: Int) {
    var bytes = Array(
      "<rss version=\"2.0\"><channel><title>T</title><item><enclosure url=\"http://e/a\" ".utf8)
    for index in 0..<300_000 { bytes += Array("a\(index)=\"1\" ".utf8) }
    bytes += Array(
      "/><title>one</title></item><item><title>two</title></item></channel></rss>".utf8)
    // CPU time of this thread, where the parse runs: what the work costs, however busy the host.
    let started = threadCPUTime()
    let outcome: ParseOutcome? = parse(
      bytes, chunkSizes: Array(repeating: chunk, count: bytes.count / chunk + 1))
    let elapsed = threadCPUTime() - started
    #expect(outcome?.result.failure == nil)
    #expect(outcome?.result.wellformed == false)
    #expect(outcome?.items.map(\.title) == ["one", "two"])
    #expect(outcome?.items.first?.enclosures.map(\.url) == ["http://e/a"])
    #expect(elapsed < .seconds(5))
  }

  /// The tag is cut wherever the bytes libxml2 holds end: inside a name (which may be the start
  /// of one the tag has), after it, after `=`, inside a quoted value, between attributes;
  /// libxml2 gets what completes it, and the element and the items after it are read.
  @Test(arguments: 0..<23)
  func aCutAnywhereInsideTheTagIsCompleted(offset: Int) {
    var bytes = Array(
      "<rss version=\"2.0\"><channel><item><title>one</title><enclosure url=\"http://e/a\" ".utf8)
    for index in 0..<3000 { bytes += Array("a\(index)=\"1\" ".utf8) }
    let tail = Array(" a12345 = \"v>'x\" b=\"2\"".utf8)
    let head = bytes.count + offset
    bytes += tail
    bytes += Array("/></item><item><title>two</title></item></channel></rss>".utf8)
    // The first push ends inside the tail: there the tag is counted and cut.
    let outcome = parse(bytes, chunkSizes: [head, 7])
    #expect(outcome.result.failure == nil, "cut at \(offset)")
    #expect(outcome.items.map(\.title) == ["one", "two"], "cut at \(offset)")
  }

  @Test func stoppedParserIgnoresFurtherChunks() {
    let parser = StreamingFeedParser(documentURL: nil) { _ in }
    parser.parse(Array("<html><body>".utf8))
    #expect(parser.isStopped)
    parser.parse(Array("<rss>".utf8))
    #expect(parser.finish().failure?.kind == .notAFeed)
  }

  /// Lists that keep each value once (tags, iTunes and Media RSS keywords and categories, hubs,
  /// enclosures by URL) grow in linear time: with a scan for each addition, a hostile item's 20,000 categories
  /// took 8.5 s (release build), and 40,000 of each here would take minutes. Every value is
  /// given twice; each must be kept once, in document order.
  @Test func longListsOfDistinctValuesStayLinear() {
    let count = 40_000
    let terms = (0..<count).map { "t\($0)" }
    let twice = terms + terms
    let words = twice.joined(separator: ",")
    let categories = twice.map { "<category domain='d'>\($0)</category>" }.joined()
    let mediaCategories = twice.map { "<media:category>\($0)</media:category>" }.joined()
    let hubs = twice.map { "<atom:link rel='hub' href='https://h.example/\($0)'/>" }.joined()
    let enclosures =
      terms.map { "<enclosure url='https://e.example/\($0)'/>" }.joined()
      + terms.map { "<enclosure url='https://e.example/\($0)' type='audio/mpeg'/>" }.joined()
    let text = """
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
        xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom">
      <channel><title>t</title>\(hubs)<item><title>i</title>\(categories)
      <itunes:keywords>\(words)</itunes:keywords><media:keywords>\(words)</media:keywords>
      \(mediaCategories)\(enclosures)</item>
      <item><title>j</title>\(twice.map { "<itunes:keywords>\($0)</itunes:keywords>" }.joined())</item>
      </channel></rss>
      """
    // CPU time of this thread, where the parse runs: what the work costs, however busy the host.
    let started = threadCPUTime()
    let outcome: ParseOutcome? = parse(text)
    let elapsed = threadCPUTime() - started
    let item = outcome?.items.first
    #expect(outcome?.channel?.hubs == terms.map { "https://h.example/\($0)" })
    #expect(item?.itunes?.keywords == terms)
    #expect(item?.media?.keywords == terms)
    #expect(item?.media?.categories.map(\.term) == terms)
    // An enclosure given again completes the first (its type), as a podcast's two do.
    #expect(item?.enclosures.map(\.url) == terms.map { "https://e.example/\($0)" })
    #expect(item?.enclosures.allSatisfy { $0.type == "audio/mpeg" } == true)
    // The RSS categories with their domain, then the keywords as iTunes tags, then the media
    // categories with Media RSS's scheme: each (term, scheme) once.
    #expect(item?.tags.count == 3 * count)
    #expect(item?.tags.prefix(count).map(\.term) == terms)
    // One keyword an element: the tag list must not be copied at each.
    let second = outcome?.items.dropFirst().first
    #expect(second?.itunes?.keywords == terms)
    #expect(second?.tags.map(\.term) == terms)
    #expect(elapsed < .seconds(20), "\(elapsed) of CPU")
  }
}
