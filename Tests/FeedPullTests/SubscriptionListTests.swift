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

  /// A line's source is its first field, ended by any blank (space, tab, vertical tab, form
  /// feed) wherever it falls in a word of eight bytes; other control bytes are part of it.
  @Test func aSourceEndsAtTheFirstBlankWhereverItFalls() throws {
    let blanks = [" ", "\t", "\u{0B}", "\u{0C}"]
    var text = ""
    var expected: [String] = []
    for length in 1..<40 {
      let source = "h" + String(repeating: "x", count: length - 1)
      let odd = source + "\u{01}" + String(repeating: "y", count: length % 9)
      for blank in blanks {
        text += source + blank + "comment \(length)\n"
        text += odd + blank + "\n"
        expected += [source, odd]
      }
      text += " \t" + source + "\n"
      expected.append(source)
    }
    let sources = try SubscriptionList.parse(Data(text.utf8), name: "urls.txt")
    #expect(sources == expected)
  }

  /// Lines ended by LF, CRLF or CR alone (old Mac lists), mixed, and lines cut by the end of a
  /// read block (64 KiB): every source once, in order, from a file as from memory.
  @Test func readsLinesEndedAnyWayAcrossBlocks() throws {
    let endings = ["\n", "\r\n", "\r", "\r\r\n\n"]
    var expected: [String] = []
    var text = ""
    for index in 0..<6_000 {
      let source = "http://s\(index).example/" + String(repeating: "p", count: index % 37)
      expected.append(source)
      text += source + endings[index % endings.count]
    }
    text += "http://last.example/"
    expected.append("http://last.example/")
    #expect(text.utf8.count > 3 << 16)
    #expect(try SubscriptionList.parse(Data(text.utf8), name: "urls.txt") == expected)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("list-\(UUID().uuidString).txt").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try SubscriptionList.read(path: path) == expected)
    let crOnly = expected.joined(separator: "\r")
    #expect(try SubscriptionList.parse(Data(crOnly.utf8), name: "mac.txt") == expected)
  }

  @Test func rejectsBrokenOPML() {
    #expect(throws: SubscriptionList.ReadError.self) {
      try SubscriptionList.parse(Data("<opml><body><outline".utf8), name: "bad.opml")
    }
  }
}
