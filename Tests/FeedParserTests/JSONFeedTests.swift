import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// JSON Feed through `FeedDocumentParser`: streaming, chunk invariance, limits and endings.
@Suite struct JSONFeedTests {
  @Test func everyFieldIsRead() throws {
    let outcome = parseDocument(try fixture("json/jsonfeed11-full.json"))
    #expect(outcome.result.failure == nil)
    let channel = try #require(outcome.channel)
    #expect(channel.version == .json11)
    #expect(channel.expired == true)
    #expect(channel.hubs == ["https://hub.example.org/"])
    #expect(channel.authors.map(\.name) == ["Ada", "Grace"])
    let item = try #require(outcome.items.first)
    #expect(item.contentType == "text/html")
    #expect(item.links.map(\.rel) == ["alternate", "related"])
    #expect(item.enclosures.map(\.duration) == [1800, 1800.5])
    #expect(item.enclosures.first?.title == "Episode 1")
    #expect(item.title == "First été 😀")
    #expect(
      outcome.items[2].authors.map(\.name) == ["Ada", "Grace"],
      "an item without authors has the feed's (JSON Feed 1.1)")
  }

  /// `\u001b` and friends decode to the control itself: gone from every string, as in XML.
  @Test func controlCharactersAreRemovedFromEveryString() throws {
    let document =
      #"{"version":"1.1","title":"a\u001b[2Jb\u0007","items":[{"id":"\u0001x","#
      + #""title":"t\u001b]0;owned\u0007\tu","content_text":"\u0000p\r\n","#
      + #""tags":["\u001bk"],"authors":[{"name":"\u0008n"}]}]}"#
    let outcome = parseDocument(Array(document.utf8))
    #expect(outcome.result.failure == nil)
    #expect(outcome.channel?.title == "a[2Jb")
    let item = try #require(outcome.items.first)
    #expect(item.id == "x")
    #expect(item.title == "t]0;owned\tu")
    #expect(item.content == "p\r\n")
    #expect(item.categories == ["k"])
    #expect(item.authors.map(\.name) == ["n"])
  }

  @Test func anItemIsHandedOverWhenItsObjectCloses() {
    var events: [FeedEvent] = []
    let parser = FeedDocumentParser(documentURL: nil) { events.append($0) }
    parser.parse(Array(#"{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"1"}"#.utf8))
    #expect(events.count == 2, "the channel and the first item, before the rest arrives")
    parser.parse(Array(#",{"id":"2"}]}"#.utf8))
    #expect(events.count == 3)
    #expect(parser.finish().failure == nil)
  }

  @Test func aTwentyMegabyteItemIsReadWhole() {
    let text = String(repeating: "0123456789abcdef", count: 20 << 16)
    let document =
      #"{"version":"1.1","items":[{"id":"big","content_text":""# + text
      + #""},{"id":"after"}]}"#
    let outcome = parseDocument(
      Array(document.utf8), chunkSizes: Array(repeating: 16384, count: 1400))
    #expect(outcome.result.failure == nil)
    #expect(outcome.items.count == 2)
    #expect(outcome.items.first?.withText(\.content) { $0?.count } == text.utf8.count)
  }

  @Test func nestingPastTheLimitStopsTheParse() throws {
    let outcome = parseDocument(try fixture("json/deep-nesting.json"))
    #expect(outcome.result.failure?.kind == .xml)
    #expect(outcome.items.count == 1)
    let shallow =
      "{\"version\":\"1.1\",\"items\":[{\"_x\":" + String(repeating: "[", count: 500)
      + String(repeating: "]", count: 500) + "}]}"
    #expect(parseDocument(Array(shallow.utf8)).result.failure == nil)
  }

  @Test func brokenJSONFailsAfterTheItemsBeforeIt() throws {
    let outcome = parseDocument(try fixture("json/broken.json"))
    #expect(outcome.result.failure?.kind == .xml)
    #expect(outcome.result.wellformed == false)
    #expect(outcome.items.map(\.id) == ["1", "2"])
  }

  /// The UTF-8 is checked before yajl sees it (yajl's own check is off), on the parse's
  /// thread or a chunk ahead on its own (`preparesAhead`): text that is not UTF-8 stops the
  /// parse after the items before it, with yajl's message, however the bytes are chunked; a
  /// character cut between two chunks is no error, and junk after the closed document is
  /// recovered from as before.
  @Test func textThatIsNotUTF8StopsAfterTheItemsBeforeIt() {
    let head = Array(
      #"{"version":"1.1","items":[{"id":"1","title":"日本"},{"id":"2","title":"a"#.utf8)
    let broken = head + [0xC3, 0x28] + Array(#""},{"id":"3"}]}"#.utf8)
    let surrogate = head + [0xED, 0xA0, 0x80] + Array(#""},{"id":"3"}]}"#.utf8)
    for document in [broken, surrogate] {
      for (sizes, ahead) in [
        ([], false), (Array(repeating: 1, count: document.count), false), ([head.count + 1], false),
        (Array(repeating: 1, count: document.count), true), ([head.count + 1], true),
      ] {
        let outcome = parseDocument(document, chunkSizes: sizes, preparesAhead: ahead)
        #expect(outcome.items.map(\.id) == ["1"])
        #expect(
          outcome.result.failure
            == FeedParseFailure(
              kind: .xml, message: "invalid JSON: lexical error: invalid bytes in UTF8 string."))
      }
    }
    let whole = Array(#"{"version":"1.1","items":[{"id":"1","title":"日本語"}]}"#.utf8)
    let byteByByte = parseDocument(whole, chunkSizes: Array(repeating: 1, count: whole.count))
    #expect(byteByByte.result.failure == nil)
    #expect(byteByByte.items.map(\.title) == ["日本語"])
    let aheadByteByByte = parseDocument(
      whole, chunkSizes: Array(repeating: 1, count: whole.count), preparesAhead: true)
    #expect(aheadByteByByte == byteByByte)
    let trailing = parseDocument(whole + [0x0A, 0xFF, 0xFE])
    #expect(trailing.result.failure == nil)
    #expect(trailing.items.count == 1)
  }

  /// Checking the UTF-8 a chunk ahead changes nothing but when events come: every JSON
  /// fixture gives the same events and result, whole and in small chunks.
  @Test func everyJSONFixtureReadsTheSameWithTheCheckAhead() throws {
    let directory = RepositoryPaths.fixtures.appendingPathComponent("json")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".json") }.sorted()
    #expect(names.count >= 8)
    for name in names {
      let bytes = try fixture("json/" + name)
      let sizes = (0..<bytes.count).map { 1 + $0 % 97 }
      let expected = parseDocument(bytes)
      #expect(parseDocument(bytes, preparesAhead: true) == expected, "\(name)")
      #expect(parseDocument(bytes, chunkSizes: sizes, preparesAhead: true) == expected, "\(name)")
    }
  }

  @Test(arguments: [
    (#"{"title":"no version","items":[]}"#, FeedParseFailure.Kind.notAFeed),
    (#"[{"version":"1.1"}]"#, .notAFeed),
    (#"{"version":"https://jsonfeed.org/version/2","items":[]}"#, .notAFeed),
    (#"{"version":1.1,"items":[]}"#, .notAFeed),
    (#"{"version":"1.1","items":[}"#, .xml),
  ])
  func jsonThatIsNotAJSONFeed(_ text: String, _ kind: FeedParseFailure.Kind) {
    #expect(parseDocument(Array(text.utf8)).result.failure?.kind == kind)
  }

  @Test(arguments: [
    ("https://jsonfeed.org/version/1", FeedVersion.json10),
    ("http://jsonfeed.org/version/1.1", .json11),
    ("1", .json10), ("1.0", .json10), ("1.1", .json11),
  ])
  func versions(_ text: String, _ version: FeedVersion) {
    #expect(JSONFeedBuilder.version(text) == version)
  }
}
