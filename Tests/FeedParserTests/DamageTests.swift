import Testing

@testable import FeedParser

/// Broken documents: what is recovered, what fails, and with which kind (CONTRACT.md, Safety).
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

  @Test func mismatchedTagIsRecovered() throws {
    let outcome = try parseFixture("damage/mismatched-tags.xml")
    #expect(outcome.items.count == 2)
    #expect(outcome.result.wellformed == false)
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
