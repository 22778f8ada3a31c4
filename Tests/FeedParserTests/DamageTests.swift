import Testing

@testable import FeedParser

/// Broken documents: what is recovered, what fails, and with which kind (docs/format.md, "Errors" and "Safety").
@Suite struct DamageTests {
  @Test func repairedEntitiesAndAmpersands() throws {
    let outcome = try parseFixture("damage/bare-ampersand.xml")
    #expect(outcome.channel?.title == "Tom & Jerry\u{A0}été")
    #expect(outcome.items.first?.link == "http://example.com/?a=1&b=2")
    #expect(outcome.result.wellformed == false)
    #expect(outcome.result.failure == nil)
  }

  @Test func controlBytesDropped() throws {
    let outcome = try parseFixture("damage/control-chars.xml")
    #expect(outcome.channel?.title == "Bell and tab")
    #expect(outcome.items.first?.title == "xy")
    #expect(outcome.result.wellformed == false)
  }

  @Test func junkAfterRootIsRecovered() throws {
    let outcome = try parseFixture("damage/junk-after-root.xml")
    #expect(outcome.items.map(\.title) == ["kept"])
    #expect(outcome.result.failure == nil)
    #expect(outcome.result.wellformed == false)
  }

  @Test func fatalErrorKeepsEarlierItems() throws {
    let outcome = try parseFixture("damage/fatal-mid-document.xml")
    #expect(outcome.items.map(\.title) == ["one", "two"])
    #expect(outcome.result.failure?.kind == .xml)
    #expect(outcome.result.wellformed == false)
  }

  @Test func cutOffDocumentFails() throws {
    let outcome = try parseFixture("damage/cut-off.xml")
    #expect(outcome.items.map(\.title) == ["whole"])
    #expect(outcome.result.failure?.kind == .xml)
  }

  /// Cut inside an item's text: the message says so, without libxml2's "Extra content at the
  /// end of the document", which it reports for such a cut.
  @Test func documentCutInsideTextSaysItEnded() {
    let outcome = parse(
      "<rss version=\"2.0\"><channel><item><title>whole</title></item><item><title>cu")
    #expect(outcome.items.map(\.title) == ["whole"])
    #expect(outcome.result.failure?.message == "the document ended before its root element closed")
  }

  @Test func mismatchedTagIsRecovered() throws {
    let outcome = try parseFixture("damage/mismatched-tags.xml")
    #expect(outcome.items.count == 2)
    #expect(outcome.result.wellformed == false)
  }

  @Test func strayEndTagsThatLoseItemsFail() throws {
    let outcome = try parseFixture("damage/stray-end-tags.xml")
    #expect(outcome.items.map(\.title) == ["one", "two"])
    #expect(outcome.result.failure?.kind == .xml)
    #expect(outcome.result.failure?.message.hasPrefix("stray end tags") == true)
  }

  @Test(arguments: ["damage/html-page.xml", "damage/other-root.xml"])
  func otherVocabularyIsNotAFeed(path: String) throws {
    let outcome = try parseFixture(path)
    #expect(outcome.events.isEmpty)
    #expect(outcome.result.failure?.kind == .notAFeed)
  }

  @Test func jsonIsNotAFeed() {
    let outcome = parse("  {\"version\": \"https://jsonfeed.org/version/1\", \"items\": []}")
    #expect(outcome.result.failure?.kind == .notAFeed)
  }

  @Test func htmlWithoutXMLIsNotAFeed() {
    let outcome = parse(
      "<!DOCTYPE html>\n<html><head><title>x</title><body><p>unclosed<br></body></html>")
    #expect(outcome.result.failure?.kind == .notAFeed)
  }

  @Test(arguments: ["", "   \n\t"])
  func emptyBodyFails(text: String) {
    let outcome = parse(text)
    #expect(outcome.result.failure?.kind == .xml)
    #expect(outcome.events.isEmpty)
  }

  /// Zero bytes that look like UTF-32 stop libxml2 at once; whether the body counted as empty
  /// must not depend on the chunking (a fuzzer find).
  @Test func earlyStopIsChunkInvariant() {
    let bytes: [UInt8] =
      [0, 0, 0, 0xFE, 0xFF] + Array(repeating: 0, count: 40)
      + Array("<?xml version=\"1.0\"?><rss/>".utf8)
    let whole = parse(bytes)
    #expect(whole.result.failure?.kind == .xml)
    #expect(parse(bytes, chunkSizes: Array(repeating: 1, count: bytes.count)) == whole)
  }

  @Test func trailingCommentsAreWellFormed() throws {
    let outcome = try parseFixture("rss/trailing-comment.xml")
    #expect(outcome.result == FeedParseResult(wellformed: true, encoding: "utf-8", failure: nil))
    #expect(outcome.items.count == 1)
  }

  /// libxml2 read an unterminated comment after the root differently by chunking (a fuzzer
  /// find); the epilog scanner reads it the same way every time.
  @Test func unterminatedCommentAfterRootIsJunk() {
    let bytes = Array(
      "<rss version=\"2.0\"><channel><item><title>i</title></item></channel></rss>\n<!-- never ends - -s>"
        .utf8)
    let whole = parse(bytes)
    #expect(whole.result == FeedParseResult(wellformed: false, encoding: "utf-8", failure: nil))
    #expect(whole.items.count == 1)
    for split in 1..<bytes.count {
      #expect(parse(bytes, chunkSizes: [split]) == whole, "split at \(split)")
    }
  }

  /// With a converting encoding, libxml2 may keep unconverted bytes aside when the root closes;
  /// the epilog scanner must see them too, or the outcome depends on the chunking. (The
  /// fuzzer's document that showed it had a garbled encoding name; this checks the property
  /// on a common converting encoding.)
  @Test func strayEndTagsInALegacyEncodingAreChunkInvariant() {
    let later = String(repeating: "<item><title>lost</title></item>", count: 200)
    var bytes = Array(
      ("<?xml version=\"1.0\" encoding=\"windows-1252\"?><rss version=\"2.0\"><channel>"
        + "<item><title>caf_</title></b></i></item>" + later + "</channel></rss>").utf8)
    bytes[bytes.firstIndex(of: UInt8(ascii: "_"))!] = 0xE9
    let whole = parse(bytes)
    #expect(whole.items.map(\.title) == ["café"])
    #expect(whole.result.failure?.kind == .xml)
    for size in [1, 7, 100, 1000] {
      #expect(
        parse(bytes, chunkSizes: Array(repeating: size, count: bytes.count / size + 1)) == whole)
    }
  }

  @Test func malformedPrologCommentIsRecovered() throws {
    let outcome = try parseFixture("damage/prolog-comment-double-hyphen.xml")
    #expect(outcome.items.map(\.title) == ["e"])
    #expect(outcome.result == FeedParseResult(wellformed: false, encoding: "utf-8", failure: nil))
  }

  @Test func plainTextFails() {
    #expect(parse("Service temporarily unavailable, try again later.").result.failure?.kind == .xml)
  }

  @Test func binaryFails() {
    let bytes: [UInt8] =
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      + (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    #expect(parse(bytes).result.failure?.kind == .xml)
  }

  @Test func undeclaredPrefixIsNotWellFormedButRead() {
    let outcome = parse(
      "<rss version=\"2.0\"><channel><item><dc:creator>Ann</dc:creator></item></channel></rss>")
    #expect(outcome.items.first?.authors == [FeedPerson(name: "Ann")])
    #expect(outcome.result.wellformed == false)
  }
}
