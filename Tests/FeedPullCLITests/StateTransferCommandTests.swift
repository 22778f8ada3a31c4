import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull state export` → `state import` end to end: a fresh state gets the same `state list`
/// (and the same export), and `--opml` is a well-formed list of every source.
@Suite(.serialized) struct StateTransferCommandTests {
  func feed(_ ids: [String]) -> String {
    CLIScratch.feed("T", items: ids)
  }

  @Test func exportThenImportIntoAFreshStateGivesTheSameList() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/a": .ok(
        feed(["1", "2"]), headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=7200")]),
      "/b": .ok(feed(["3"]), headers: [("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")]),
      "/gone": .ok("", status: 410),
    ])
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let first = scratch.path("first.db")
    let second = scratch.path("second.db")
    let pulled = try FeedpullProcess.run([
      "-f", "jsonl", "--state", first, "--host-delay", "0", "--per-host", "8",
      server.url("/a"), server.url("/b"), server.url("/gone"),
    ])
    #expect(pulled.status == 1)  // the 410
    let export = try FeedpullProcess.run(["state", "export", "--state", first])
    #expect(export.status == 0)
    #expect(export.records.count == 3)
    #expect(export.stdout.contains("\"etag\":\"\\\"v1\\\"\""))
    let file = try scratch.file("export.jsonl", export.stdout)
    let imported = try FeedpullProcess.run(["state", "import", file, "--state", second])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stderr.contains("3 sources restored"))
    let lists = try [first, second].map {
      try FeedpullProcess.run(["state", "list", "--state", $0])
    }
    #expect(lists[0].stdout.split(separator: "\n").count == 3)
    #expect(lists[0].stdout == lists[1].stdout)
    #expect(
      try FeedpullProcess.run(["state", "export", "--state", second]).stdout == export.stdout)
    // The restored state remembers the items: the next pull writes none of them again.
    let again = try FeedpullProcess.run([
      "-f", "jsonl", "--state", second, "--host-delay", "0", "--force", server.url("/a"),
    ])
    #expect(again.records.filter { $0["type"] as? String == "item" }.isEmpty, "\(again.stdout)")
  }

  @Test func importTakesAListFromStandardInput() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let state = scratch.path("s.db")
    let result = try FeedpullProcess.run(
      ["state", "import", "-", "--state", state],
      input: Data("http://a.example/feed # mine\nhttp://b.example/feed \"tag\"\n".utf8))
    #expect(result.status == 0)
    let list = try FeedpullProcess.run(["state", "list", "--state", state])
    #expect(
      list.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == [
        "http://a.example/feed", "http://b.example/feed",
      ])
  }

  @Test func aBrokenExportIsAUsageErrorAndWritesNothing() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let state = scratch.path("s.db")
    let file = try scratch.file("bad.jsonl", "{\"type\":\"subscription\",\"source\":\"x\"}\n")
    let result = try FeedpullProcess.run(["state", "import", file, "--state", state])
    #expect(result.status == 2)
    #expect(result.stderr.contains("bad.jsonl, line 1"), "\(result.stderr)")
  }

  /// A listed web address without its scheme is a usage error that suggests the URL, as a pull
  /// of the list gives, and nothing of the list is subscribed (it was subscribed as a path that
  /// failed as a missing file on every run).
  @Test func importOfAnAddressWithoutItsSchemeSuggestsTheURL() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let state = scratch.path("s.db")
    let list = try scratch.file(
      "subs.opml",
      """
      <opml version="2.0"><body>
      <outline xmlUrl="http://a.example/feed"/><outline xmlUrl="example.com/feed.xml"/>
      </body></opml>
      """)
    let result = try FeedpullProcess.run(["state", "import", list, "--state", state])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains(
        "example.com/feed.xml is no file; to subscribe to it on the web, give its URL: "
          + "https://example.com/feed.xml"), "\(result.stderr)")
    let listed = try FeedpullProcess.run(["state", "list", "--state", state])
    #expect(listed.stdout.isEmpty)
  }

  @Test func theOPMLExportIsWellFormedWithEverySource() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let state = scratch.path("s.db")
    let sources = (0..<20).map { "https://site\($0).example/feed?a=1&b=\($0)" } + ["feeds/x y.xml"]
    let list = try scratch.file(
      "urls", sources.joined(separator: "\n").replacingOccurrences(of: " ", with: "%20"))
    #expect(try FeedpullProcess.run(["state", "import", list, "--state", state]).status == 0)
    let result = try FeedpullProcess.run(["state", "export", "--opml", "--state", state])
    #expect(result.status == 0)
    let outlines = OPMLOutlines(Data(result.stdout.utf8))
    #expect(outlines.wellFormed, "\(result.stdout)")
    #expect(outlines.version == "2.0")
    #expect(
      Set(outlines.urls) == Set(sources.map { $0.replacingOccurrences(of: " ", with: "%20") }))
  }

  @Test func aWatchWithNoSourceWatchesTheSourcesOfTheState() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let feed = try scratch.file("a.xml", CLIScratch.feed("A", items: ["1", "2"]))
    let state = scratch.path("s.db")
    let imported = try FeedpullProcess.run(
      ["state", "import", "-", "--state", state], input: Data("\(feed)\n".utf8))
    #expect(imported.status == 0)
    let watch = try RunningFeedpull(["watch", "-f", "jsonl", "--state", state])
    #expect(watch.waitForOutput("\"type\":\"end\"", timeout: 60))
    watch.send(SIGTERM)
    let result = watch.finish(deadline: 60)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.records.filter { $0["type"] as? String == "item" }.count == 2)
  }
}
