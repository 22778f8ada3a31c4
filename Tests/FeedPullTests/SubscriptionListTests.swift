import Foundation
import Testing

@testable import FeedPull

@Suite struct SubscriptionListTests {
  @Test func readsOutlinesAtAnyDepth() throws {
    let opml = """
      <?xml version="1.0"?>
      <opml version="2.0"><head><title>subs</title></head><body>
        <outline text="Tech">
          <outline text="A" type="rss" xmlUrl="http://a.example/feed"/>
          <outline text="Deeper"><outline text="B" xmlUrl="https://b.example/atom.xml"/></outline>
        </outline>
        <outline text="no feed here"/>
        <outline text="C" xmlurl="feeds/rss20.xml"/>
      </body></opml>
      """
    let sources = try SubscriptionList.parse(Data(opml.utf8), name: "subs.opml")
    #expect(sources == ["http://a.example/feed", "https://b.example/atom.xml", "feeds/rss20.xml"])
  }

  @Test func readsOneSourceALine() throws {
    let text = "# my feeds\nhttp://a.example/feed\n\n  feeds/atom10.xml  \n# gone: http://old/\n"
    let sources = try SubscriptionList.parse(Data(text.utf8), name: "urls.txt")
    #expect(sources == ["http://a.example/feed", "feeds/atom10.xml"])
  }

  @Test func rejectsBrokenOPML() {
    #expect(throws: SubscriptionList.ReadError.self) {
      try SubscriptionList.parse(Data("<opml><body><outline".utf8), name: "bad.opml")
    }
  }
}
