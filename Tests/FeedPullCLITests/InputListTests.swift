import Foundation
import TestSupport
import Testing

/// Where sources come from, end to end: `-i -`, list lines with comments and newsboat's tags,
/// a web address without its scheme, an `-i` file that cannot be read.
@Suite(.serialized) struct InputListTests {
  @Test func aListOnStandardInput() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let a = try scratch.file("a.xml", CLIScratch.feed("A", items: ["1", "2"]))
    let b = try scratch.file("b.xml", CLIScratch.feed("B", items: ["3"]))
    let result = try FeedpullProcess.run(
      ["-f", "jsonl", "-i", "-"], input: Data("\(a)\n\(b)\n".utf8))
    #expect(result.status == 0, "\(result.stderr)")
    let ends = result.records.filter { $0["type"] as? String == "end" }
    #expect(Set(ends.compactMap { $0["source"] as? String }) == [a, b])
    #expect(ends.compactMap { $0["items"] as? Int }.reduce(0, +) == 3)
  }

  /// A source's name is others' text (a URL a service's user typed, an OPML list's `xmlUrl`
  /// with `&#10;`): on stderr it stays on its message's line, so that it cannot add a line
  /// that reads as feedpull's own.
  @Test func aSourceWithALineBreakStaysOnItsLineOnStandardError() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let forged = "feedpull: every source ok"
    let missing = scratch.folder.path + "/missing.xml\n" + forged
    let list = try scratch.file(
      "subs.opml",
      """
      <opml version="2.0"><body>
      <outline xmlUrl="\(scratch.folder.path)/gone.xml&#10;\(forged)"/>
      </body></opml>
      """)
    let result = try FeedpullProcess.run(["-f", "jsonl", "-i", list, missing])
    #expect(result.status == 1)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 2, "\(result.stderr)")
    #expect(lines.allSatisfy { $0.hasPrefix("feedpull: \(scratch.folder.path)/") })
    #expect(lines.allSatisfy { $0.contains(forged) })
    let sources = result.records.filter { $0["type"] as? String == "end" }.compactMap {
      $0["source"] as? String
    }
    #expect(Set(sources) == [missing, scratch.folder.path + "/gone.xml\n" + forged])
  }

  @Test func standardInputAsTheListAndASourceIsAUsageError() throws {
    let result = try FeedpullProcess.run(["-i", "-", "-"], input: Data())
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("standard input"))
  }

  @Test func aListLinesFirstFieldIsTheSource() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let a = try scratch.file("a.xml", CLIScratch.feed("A", items: ["1"]))
    let b = try scratch.file("b.xml", CLIScratch.feed("B", items: ["2"]))
    let c = try scratch.file("c.xml", CLIScratch.feed("C", items: ["3"]))
    // A newsboat `urls` file: tags and a "~title" after the URL, a query feed, comments.
    let list = try scratch.file(
      "urls",
      """
      # my subscriptions
      \(a) # the first one
      \(b) "tech" "~B, renamed" news
      "query:Unread Articles:unread = \\"yes\\""
        \(c)\ttabbed   "tag"

      """)
    let result = try FeedpullProcess.run(["-f", "jsonl", "-i", list])
    #expect(result.status == 0, "\(result.stderr)")
    let sources = result.records.filter { $0["type"] as? String == "end" }.compactMap {
      $0["source"] as? String
    }
    #expect(Set(sources) == [a, b, c])
  }

  @Test(arguments: [
    ("example.com/feed", "https://example.com/feed"),
    ("localhost:8080/x", "https://localhost:8080/x"),
    ("blog.example.co.uk/atom.xml", "https://blog.example.co.uk/atom.xml"),
  ])
  func aWebAddressWithoutItsSchemeIsAUsageErrorThatSuggestsTheURL(_ typed: String, _ url: String)
    throws
  {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let result = try FeedpullProcess.run([typed], currentDirectory: scratch.folder)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(url), "\(result.stderr)")
    // Listed, the same.
    let list = try scratch.file("list.txt", "\(typed)\n")
    let listed = try FeedpullProcess.run(["-i", list], currentDirectory: scratch.folder)
    #expect(listed.status == 2)
    #expect(listed.stderr.contains(url))
  }

  @Test func aFileThatLooksLikeAnAddressIsAFile() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    try FileManager.default.createDirectory(
      atPath: scratch.path("example.com"), withIntermediateDirectories: true)
    try scratch.file("example.com/feed", CLIScratch.feed("Local", items: ["1"]))
    let result = try FeedpullProcess.run(
      ["-f", "jsonl", "example.com/feed"], currentDirectory: scratch.folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.records.last?["items"] as? Int == 1)
  }

  @Test func anUnreadableListSaysWhy() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let missing = try FeedpullProcess.run(["-i", scratch.path("nothing.txt")])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("No such file or directory"), "\(missing.stderr)")
    let folder = try FeedpullProcess.run(["-i", scratch.folder.path])
    #expect(folder.status == 2)
    #expect(folder.stderr.contains("Is a directory"), "\(folder.stderr)")
  }
}
