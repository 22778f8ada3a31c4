import Testing

@testable import FeedParser

/// Items leave the parser as their end tags are parsed, and nothing accumulates per item.
@Suite struct StreamingTests {
  @Test func itemsAreHandedOverBeforeTheDocumentEnds() {
    var events: [FeedEvent] = []
    let parser = StreamingFeedParser(documentURL: nil) { events.append($0) }
    parser.parse(
      Array(
        """
        <rss version="2.0"><channel><title>Live</title>
        <item><title>one</title></item><item><title>two</title></item><item><title>thr
        """.utf8))
    #expect(events.count == 3)
    guard events.count == 3 else { return }
    #expect(
      events[0]
        == .channel(
          {
            var channel = FeedChannel(version: .rss20)
            channel.title = "Live"
            channel.titleType = "text/plain"
            return channel
          }()))
    if case .item(let item) = events[2] {
      #expect(item.title == "two")
      #expect(item.index == 1)
    } else {
      Issue.record("expected the second item, got \(events[2])")
    }
    parser.parse(Array("ee</title></item></channel></rss>".utf8))
    #expect(events.count == 4)
    let result = parser.finish()
    #expect(result == FeedParseResult(wellformed: true, encoding: "utf-8", failure: nil))
  }

  @Test func channelWithoutItemsComesAtFinish() {
    var events: [FeedEvent] = []
    let parser = StreamingFeedParser(documentURL: nil) { events.append($0) }
    parser.parse(
      Array("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Empty</title></feed>".utf8))
    #expect(events.isEmpty)
    _ = parser.finish()
    #expect(events.count == 1)
    if case .channel(let channel) = events.first {
      #expect(channel.version == .atom10)
      #expect(channel.title == "Empty")
    }
  }

  /// 200,000 items fed in 64 KiB chunks: the parser's held bytes, open elements and pending
  /// text stay under a bound that does not depend on the item count.
  @Test func retainedStateStaysBoundedOverManyItems() {
    let itemCount = 200_000
    var handedOver = 0
    let parser = StreamingFeedParser(documentURL: "http://example.com/") { event in
      if case .item = event { handedOver += 1 }
    }
    var maximum = 0
    var chunk: [UInt8] = Array(
      "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Big</title>".utf8)
    for index in 0..<itemCount {
      chunk += Array(
        """
        <item><title>Item \(index)</title><link>/items/\(index)</link>\
        <description>Text &amp; more for item \(index)</description>\
        <guid>http://example.com/items/\(index)</guid></item>
        """.utf8)
      if chunk.count >= 1 << 16 {
        parser.parse(chunk)
        chunk.removeAll(keepingCapacity: true)
        maximum = max(maximum, parser.retainedStateSize)
      }
    }
    chunk += Array("</channel></rss>".utf8)
    parser.parse(chunk)
    let result = parser.finish()
    #expect(result.failure == nil)
    #expect(handedOver == itemCount)
    #expect(maximum < 4096, "retained state reached \(maximum)")
  }
}
