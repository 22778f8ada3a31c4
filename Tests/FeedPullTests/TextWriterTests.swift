import FeedParser
import Foundation
import Testing

@testable import FeedPull

@Suite struct TextWriterTests {
  /// Everything `body` makes the writer print, read back from a temporary file.
  func printed(
    columns: Int = 80, style: TextWriter.Style = TextWriter.Style(), _ body: (TextWriter) -> Void
  ) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-text-\(UUID().uuidString)").path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer {
      close(descriptor)
      unlink(path)
    }
    let writer = TextWriter(fileDescriptor: descriptor, columns: columns, style: style)
    body(writer)
    writer.flush()
    return try String(contentsOfFile: path, encoding: .utf8)
  }

  func item(_ source: String, _ index: Int, _ title: String) -> PullRecord {
    var item = FeedItem(index: index)
    item.title = title
    item.link = "http://example.com/\(index)"
    item.published = .instant(1_761_955_200)
    return .item(ItemRecord(source: source, item: item))
  }

  func feed(_ source: String, _ title: String) -> PullRecord {
    var channel = FeedChannel(version: .rss20)
    channel.title = title
    return .feed(FeedRecord(source: source, url: nil, channel: channel))
  }

  @Test func interleavedSourcesComeOutOneAfterAnother() throws {
    let text = try printed { writer in
      writer.receive(feed("a.xml", "Feed A"))
      writer.receive(item("a.xml", 0, "A one"))
      writer.receive(feed("b.xml", "Feed B"))
      writer.receive(item("b.xml", 0, "B one"))
      writer.receive(item("a.xml", 1, "A two"))
      writer.receive(.end(EndRecord(source: "b.xml")))
      writer.receive(.end(EndRecord(source: "a.xml")))
    }
    #expect(text.components(separatedBy: "Feed A").count == 2)
    #expect(text.components(separatedBy: "Feed B").count == 2)
    let order = ["Feed A", "A one", "A two", "Feed B", "B one"].map {
      text.range(of: $0)?.lowerBound
    }
    #expect(order.allSatisfy { $0 != nil })
    #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
  }

  @Test func podcastEpisodeShowsItsDurationBesideItsTitle() throws {
    let text = try printed(columns: 100) { writer in
      var episode = FeedItem(index: 0)
      episode.title = "Episode one"
      episode.link = "http://example.com/1"
      var itunes = ITunesInfo()
      itunes.duration = 3723
      episode.itunes = itunes
      writer.receive(.item(ItemRecord(source: "p.xml", item: episode)))
      var short = episode
      short.title = String(repeating: "Long title ", count: 20)
      short.itunes!.duration = 59
      writer.receive(.item(ItemRecord(source: "p.xml", item: short)))
      writer.receive(.end(EndRecord(source: "p.xml")))
    }
    let lines = text.split(separator: "\n").map(String.init)
    #expect(
      lines.contains { $0.contains("Episode one  1:02:03") && $0.hasSuffix("http://example.com/1") }
    )
    // A title too long for the line is cut, never the duration.
    #expect(lines.contains { $0.contains("  0:59  http://example.com/1") })
    #expect(lines.allSatisfy { $0.count <= 100 })
  }

  @Test func wideTitlesAreFittedByColumnsNotCharacters() throws {
    let text = try printed(columns: 80) { writer in
      writer.receive(item("j.xml", 0, String(repeating: "日本語のタイトル", count: 8)))
      writer.receive(.end(EndRecord(source: "j.xml")))
    }
    let line = try #require(text.split(separator: "\n").first { $0.contains("http://") })
    let columns = line.unicodeScalars.reduce(0) {
      $0 + (($1.value >= 0x3000 && $1.value <= 0x9FFF) ? 2 : 1)
    }
    #expect(columns <= 80, "\(columns) columns: \(line)")
    #expect(line.contains("…"))
  }

  @Test func aSourceThatWroteNothingShowsNothingUnlessVerbose() throws {
    func run(_ style: TextWriter.Style) throws -> String {
      try printed(style: style) { writer in
        writer.receive(feed("quiet.xml", "Quiet feed"))
        writer.receive(.end(EndRecord(source: "quiet.xml")))
        writer.receive(feed("busy.xml", "Busy feed"))
        writer.receive(item("busy.xml", 0, "News"))
        writer.receive(.end(EndRecord(source: "busy.xml")))
      }
    }
    let normal = try run(TextWriter.Style())
    #expect(!normal.contains("Quiet feed"))
    #expect(normal.hasPrefix("Busy feed  (busy.xml)\n"))
    var verbose = TextWriter.Style()
    verbose.headsQuietSources = true
    let shown = try run(verbose)
    #expect(shown.hasPrefix("Quiet feed  (quiet.xml)\n\nBusy feed  (busy.xml)\n"))
  }

  /// Ends of sources that showed nothing, coming while a source speaks (a `--due -i` pass's
  /// `not_due` ends between a due source's items): without `-v` none takes a turn, and the
  /// speaking source's lines and the next one's come out whole and in order; with `-v` each
  /// one's heading waits its turn, in the order the ends came.
  @Test func quietEndsWhileASourceSpeaksKeepTheirOrder() throws {
    struct NoFields: EndRecordFields, Equatable {
      func write(to writer: inout EndRecordFieldWriter) {}
    }
    struct Quiet: UnpulledEndBatch {
      var names: [String]
      var count: Int { names.count }
      func source(at index: Int) -> String { names[index] }
      func addedFields(at index: Int) -> any EndRecordFields { NoFields() }
    }
    let names = (0..<3000).map { "q\($0).xml" }
    func run(_ style: TextWriter.Style) throws -> String {
      try printed(style: style) { writer in
        writer.receive(feed("a.xml", "Feed A"))
        writer.receive(item("a.xml", 0, "A one"))
        writer.receive(unpulled: Quiet(names: Array(names[..<1500])))
        writer.receive(feed("b.xml", "Feed B"))
        writer.receive(item("b.xml", 0, "B one"))
        writer.receive(unpulled: Quiet(names: Array(names[1500...])))
        writer.receive(item("a.xml", 1, "A two"))
        writer.receive(.end(EndRecord(source: "b.xml")))
        writer.receive(.end(EndRecord(source: "a.xml")))
      }
    }
    func inOrder(_ text: String, _ parts: [String]) -> Bool {
      let places = parts.map { text.range(of: $0)?.lowerBound }
      return places.allSatisfy { $0 != nil } && places.map { $0! } == places.map { $0! }.sorted()
    }
    let normal = try run(TextWriter.Style())
    #expect(inOrder(normal, ["Feed A", "A one", "A two", "Feed B", "B one"]))
    #expect(!normal.contains("q0.xml"))
    var style = TextWriter.Style()
    style.headsQuietSources = true
    let verbose = try run(style)
    #expect(
      inOrder(
        verbose,
        [
          "Feed A", "A one", "A two", "q0.xml", "q1499.xml", "Feed B", "B one", "q1500.xml",
          "q2999.xml",
        ]))
    #expect(verbose.components(separatedBy: "\n").filter { $0.contains(".xml") }.count == 3002)
  }

  @Test func aWatchShowsEachPullsItemsUnderTheirFeedWithTheLineTime() throws {
    var style = TextWriter.Style()
    style.lineClock = { 1_761_990_000 }
    let text = try printed(style: style) { writer in
      for pull in 0..<2 {
        writer.receive(feed("a.xml", "Feed A"))
        writer.receive(item("a.xml", pull, "A \(pull)"))
        writer.receive(.end(EndRecord(source: "a.xml")))
        writer.receive(feed("b.xml", "Feed B"))
        writer.receive(item("b.xml", pull, "B \(pull)"))
        writer.receive(.end(EndRecord(source: "b.xml")))
      }
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.filter { $0.hasPrefix("Feed A") }.count == 2)
    #expect(lines.filter { $0.hasPrefix("Feed B") }.count == 2)
    let stamp = try #require(LocalTime.dateAndTime(1_761_990_000))
    #expect(
      lines.filter { $0.contains("  \(stamp)  A ") || $0.contains("  \(stamp)  B ") }.count == 4)
    let order = ["Feed A", "A 0", "Feed B", "B 0", "Feed A", "A 1", "Feed B", "B 1"]
    var rest = Substring(text)
    for word in order {
      let found = try #require(rest.range(of: word), "\(word) out of order")
      rest = rest[found.upperBound...]
    }
  }

  @Test func titlesLoseWhatATerminalWouldActOn() throws {
    let text = try printed { writer in
      writer.receive(feed("x.xml", "Feed\u{1B}[2J title"))
      writer.receive(item("x.xml", 0, "Item \u{9B}31m\u{202E}reversed"))
      writer.receive(.end(EndRecord(source: "x.xml")))
    }
    #expect(!text.unicodeScalars.contains { TerminalText.isRemoved($0) && $0 != "\n" })
    #expect(text.contains("Feed[2J title"))
    #expect(text.contains("Item 31mreversed"))
  }

  @Test func htmlTitlesShowAsText() throws {
    let text = try printed { writer in
      var channel = FeedChannel(version: .rss20)
      channel.title = "Dev &amp; Ops <i>Weekly</i>"
      channel.titleType = "text/html"
      writer.receive(.feed(FeedRecord(source: "h.xml", url: nil, channel: channel)))
      var entry = FeedItem(index: 0)
      entry.title = "<b>Bold</b> &lt;news&gt;<script>alert(1)</script>"
      entry.titleType = "text/html"
      writer.receive(.item(ItemRecord(source: "h.xml", item: entry)))
      var plain = FeedItem(index: 1)
      plain.title = "<b>kept</b> as typed"
      writer.receive(.item(ItemRecord(source: "h.xml", item: plain)))
      writer.receive(.end(EndRecord(source: "h.xml")))
    }
    let lines = text.split(separator: "\n")
    #expect(lines.first == "Dev & Ops Weekly  (h.xml)")
    #expect(lines[1].hasSuffix("Bold <news>"), "\(lines[1])")
    #expect(lines[2].hasSuffix("<b>kept</b> as typed"))
  }
}
