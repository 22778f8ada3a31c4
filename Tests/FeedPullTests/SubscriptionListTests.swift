import Foundation
import Testing

@testable import FeedPull

#if canImport(Glibc)
  import Glibc
#endif

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

  /// OPML's names as readers take them (any letter case, no namespace prefix), values decoded
  /// (XML's escapes, character references, the internal subset's entities) and trimmed of
  /// white space and line breaks, Unicode's too; empty ones left out.
  @Test func readsOutlinesAsOPMLReadersNameThem() throws {
    let opml = """
      <?xml version="1.0"?>
      <!DOCTYPE opml [ <!ENTITY home "http://e.example/feed"> ]>
      <OPML version="2.0"><body>
        <Outline text="a" XMLURL="http://a.example/?x=1&amp;y=2&#38;z=3&#x26;w&lt;"/>
        <outline text="b" xmlURL=" \t http://b.example/ &#10;"/>
        <outline text="c" xmlUrl="&#xA0;http://c.example/&#x3000;"/>
        <outline text="d" xmlUrl="&home;"/>
        <outline text="empty" xmlUrl=" "/>
        <x:outline xmlns:x="urn:x" xmlUrl="http://not-an-outline.example/"/>
        <outline xmlns:x="urn:x" x:xmlUrl="http://not-the-attribute.example/"/>
        <outline text="f" xmlUrl="http://f.example/caf\u{E9}"/>
      </body></OPML>
      """
    #expect(
      try SubscriptionList.parse(Data(opml.utf8), name: "subs.opml") == [
        "http://a.example/?x=1&y=2&z=3&w<", "http://b.example/", "http://c.example/",
        "http://e.example/feed", "http://f.example/caf\u{E9}",
      ])
  }

  /// A list of 30,000 outlines (2.8 MB, 43 blocks of 64 KiB, outlines cut at every place) is read
  /// from its file a block at a time, every URL once and in order; a list that breaks after
  /// them is refused with the line of its break.
  @Test func anOPMLFileIsReadABlockAtATime() throws {
    var expected: [String] = []
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><body>\n"
    for index in 0..<30_000 {
      let url =
        "https://h\(index % 97).example/feed/\(index)?" + String(repeating: "q", count: index % 23)
      expected.append(url)
      let depth = index % 3
      text += String(repeating: "<outline text=\"folder\">", count: depth)
      text +=
        "<outline type=\"rss\" text=\"Feed \(index)\" xmlUrl=\"\(url)\" htmlUrl=\"https://h.example/\"/>\n"
      text += String(repeating: "</outline>", count: depth)
    }
    let whole = text + "</body></opml>\n"
    #expect(whole.utf8.count > 40 << 16)
    let directory = FileManager.default.temporaryDirectory
    let path = directory.appendingPathComponent("subs-\(UUID().uuidString).opml").path
    try Data(whole.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try SubscriptionList.read(path: path) == expected)

    let broken = text + "<outline xmlUrl=\"http://late.example/\">\n</body></opml>\n"
    let brokenPath = directory.appendingPathComponent("broken-\(UUID().uuidString).opml").path
    try Data(broken.utf8).write(to: URL(fileURLWithPath: brokenPath))
    defer { try? FileManager.default.removeItem(atPath: brokenPath) }
    let lines = broken.split(separator: "\n", omittingEmptySubsequences: false).count
    do {
      _ = try SubscriptionList.read(path: brokenPath)
      Issue.record("a broken list was read")
    } catch {
      #expect(error.description == "\(brokenPath) is not a readable OPML file (line \(lines - 1))")
    }
  }

  /// A list larger than libxml2 holds unparsed without `XML_PARSE_HUGE` (10 MB): 300,000
  /// outlines, 40 MB, read whole from memory (`state import`) and from its file. Foundation's
  /// parser refused such a list, as did pushing it in chunks of 16 MiB.
  @Test func aListOfFortyMegabytesIsRead() throws {
    var bytes = Array("<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><body>\n".utf8)
    let count = 300_000
    bytes.reserveCapacity(count * 140)
    for index in 0..<count {
      bytes += Array(
        "<outline type=\"rss\" text=\"A feed with a title of some length\" xmlUrl=\"https://h\(index).example/feed.xml\" htmlUrl=\"https://h.example/\"/>\n"
          .utf8)
    }
    bytes += Array("</body></opml>\n".utf8)
    #expect(bytes.count > 40_000_000)
    let data = Data(bytes)
    let sources = try SubscriptionList.parse(data, name: "big.opml")
    #expect(sources.count == count)
    #expect(sources.last == "https://h\(count - 1).example/feed.xml")
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("big-\(UUID().uuidString).opml").path
    try data.write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try SubscriptionList.read(path: path) == sources)
  }

  /// An external entity is never read into a URL (a list a service's user uploaded must not
  /// send a local file's contents to a server): in an attribute it makes the list unreadable;
  /// in text it is left unread. A list of nested entities that would expand to a billion
  /// characters is refused at once.
  @Test func anOPMLListNeverReadsAnExternalEntityAndCannotExplode() throws {
    let secret = FileManager.default.temporaryDirectory
      .appendingPathComponent("secret-\(UUID().uuidString).txt").path
    try Data("SECRET".utf8).write(to: URL(fileURLWithPath: secret))
    defer { try? FileManager.default.removeItem(atPath: secret) }
    let doctype = "<!DOCTYPE opml [ <!ENTITY s SYSTEM \"file://\(secret)\"> ]>"
    let inAttribute =
      "\(doctype)<opml><body><outline xmlUrl=\"http://a.example/?&s;\"/></body></opml>"
    #expect(throws: SubscriptionList.ReadError.self) {
      try SubscriptionList.parse(Data(inAttribute.utf8), name: "a.opml")
    }
    let inText =
      "\(doctype)<opml><body><outline xmlUrl=\"http://a.example/\">&s;</outline></body></opml>"
    #expect(try SubscriptionList.parse(Data(inText.utf8), name: "t.opml") == ["http://a.example/"])

    var laughs = "<!DOCTYPE opml [ <!ENTITY a \"aaaaaaaaaa\">"
    var previous = "a"
    for name in ["b", "c", "d", "e", "f", "g", "h", "i", "j"] {
      laughs += "<!ENTITY \(name) \"\(String(repeating: "&\(previous);", count: 10))\">"
      previous = name
    }
    laughs += " ]><opml><body><outline xmlUrl=\"http://a.example/\">&j;</outline></body></opml>"
    #expect(throws: SubscriptionList.ReadError.self) {
      try SubscriptionList.parse(Data(laughs.utf8), name: "laughs.opml")
    }
  }

  /// The encoding the list declares, or its UTF-16 byte order mark (as Windows tools save it).
  @Test func readsOPMLInTheEncodingItDeclares() throws {
    let body = "<opml><body><outline xmlUrl=\"http://a.example/caf\u{E9}\"/></body></opml>\n"
    let latin1 = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" + body
    let utf16 = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" + body
    for data in [
      latin1.data(using: .isoLatin1)!, utf16.data(using: .utf16LittleEndian)!,
      utf16.data(using: .utf16BigEndian)!,
    ] {
      #expect(try SubscriptionList.parse(data, name: "subs.opml") == ["http://a.example/caf\u{E9}"])
    }
  }

  /// An OPML list whose first read holds only white space (a pipe's writer sent a blank line
  /// first) is still OPML: the kind is told by the first byte that is not blank.
  @Test func anOPMLListWhoseFirstReadIsBlankIsStillOPML() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let (reader, writer) = (ends[0], ends[1])
    defer { close(reader) }
    let rest = "<opml><body><outline xmlUrl=\"http://a.example/\"/></body></opml>\n"
    let sender = Thread {
      _ = "\n  \n".withCString { write(writer, $0, 4) }
      // The rest only once the blank lines were read, so that they come in a read of their own.
      let deadline = Date().addingTimeInterval(10)
      var waiting: Int32 = 1
      while waiting > 0, Date() < deadline {
        _ = ioctl(writer, UInt(FIONREAD), &waiting)
        sched_yield()
      }
      _ = rest.withCString { write(writer, $0, strlen($0)) }
      close(writer)
    }
    sender.start()
    #expect(try SubscriptionList.read(path: "/dev/fd/\(reader)") == ["http://a.example/"])
  }

  /// A file that is no list of sources (binary data, `/dev/zero`, a line of megabytes) is
  /// refused at once, saying where, instead of being pulled as junk names or held whole.
  @Test func aFileThatIsNoListIsRefusedAtOnce() throws {
    func refusal(_ body: () throws -> [String]) -> String? {
      do {
        _ = try body()
        return nil
      } catch {
        return (error as? SubscriptionList.ReadError)?.description
      }
    }
    #expect(
      refusal { try SubscriptionList.parse(Data("http://a/\nab\u{0}c\n".utf8), name: "bin") }
        == "bin is not a list of sources: a NUL byte at byte 12")
    #expect(
      refusal { try SubscriptionList.read(path: "/dev/zero") }
        == "/dev/zero is not a list of sources: a NUL byte at byte 0")
    let head = "http://a.example/\n# fine\n"
    let text = head + String(repeating: "x", count: 3 << 19) + "\nhttp://b.example/\n"
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("long-\(UUID().uuidString).txt").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(
      refusal { try SubscriptionList.read(path: path) }
        == "\(path) is not a list of sources: a line longer than 1 MiB at byte \(head.utf8.count)")
  }

  @Test func rejectsBrokenOPML() {
    #expect(throws: SubscriptionList.ReadError.self) {
      try SubscriptionList.parse(Data("<opml><body><outline".utf8), name: "bad.opml")
    }
  }
}
