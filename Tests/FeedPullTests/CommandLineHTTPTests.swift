import Foundation
import TestSupport
import Testing

/// The real `feedpull` binary against a loopback server.
@Suite struct CommandLineHTTPTests {
  @Test func pullsAThousandFeedsFromAListAtSixteenJobs() throws {
    var routes: [String: HTTPScript] = [:]
    for index in 0..<1000 {
      let feed = rssFeed(items: 3, title: "Feed \(index)", from: index * 3)
      routes["/f/\(index)"] =
        index % 2 == 0 ? .ok(feed) : HTTPScript(framing: .chunked, steps: [.send(Array(feed.utf8))])
    }
    let server = try LoopbackHTTPServer(routes: routes)
    let list = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-urls-\(UUID().uuidString).txt")
    try (0..<1000).map { server.url("/f/\($0)") }.joined(separator: "\n")
      .write(to: list, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: list) }

    let result = try FeedpullProcess.run(
      ["-j", "16", "--per-host", "16", "--host-delay", "0", "-i", list.path], deadline: 120)
    #expect(result.status == 0, "\(result.stderr.suffix(4000))")
    let records = result.records
    let ends = records.filter { $0["type"] as? String == "end" }
    #expect(ends.count == 1000)
    #expect(ends.allSatisfy { $0["ok"] as? Bool == true && $0["items"] as? Int == 3 })
    let titles = Set(
      records.compactMap { $0["type"] as? String == "item" ? $0["title"] as? String : nil })
    #expect(titles == Set((0..<3000).map { "Item \($0)" }))
    #expect(server.peakConcurrentResponses <= 16)
  }

  @Test func anHTTPErrorExitsOneAndSaysSoOnStderr() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/gone": .ok("<html>gone</html>", headers: [("Content-Type", "text/html")], status: 410),
      "/feed": .ok(rssFeed(items: 1)),
    ])
    let result = try FeedpullProcess.run([
      "-f", "jsonl", "--host-delay", "0", server.url("/gone"), server.url("/feed"),
    ])
    #expect(result.status == 1)
    #expect(result.stderr.contains("http"))
    let end = result.records.first { $0["source"] as? String == server.url("/gone") }
    #expect((end?["error"] as? [String: Any])?["status"] as? Int == 410)
    #expect(result.records.filter { $0["type"] as? String == "item" }.count == 1)
  }

  @Test func aSiteAddressLeadsToItsFeedEndToEnd() throws {
    let page = """
      <!doctype html><html><head><link rel=alternate type=application/rss+xml href=/feed.xml>
      </head><body>Blog</body></html>
      """
    let server = try LoopbackHTTPServer(routes: [
      "/": .ok(page, headers: [("Content-Type", "text/html")]), "/feed.xml": .ok(rssFeed(items: 2)),
    ])
    let result = try FeedpullProcess.run(["-f", "jsonl", server.url("/")])
    #expect(result.status == 0, "\(result.stderr)")
    let end = result.records.last
    #expect(end?["discovered_from"] as? String == server.url("/"))
    #expect(end?["url"] as? String == server.url("/feed.xml"))
    #expect(result.records.filter { $0["type"] as? String == "item" }.count == 2)

    let listed = try FeedpullProcess.run(["-f", "jsonl", "--no-discover", server.url("/")])
    #expect(listed.status == 1)
    let feeds = listed.records.last?["feeds"] as? [[String: Any]]
    #expect(feeds?.first?["url"] as? String == server.url("/feed.xml"))
    #expect(listed.stderr.contains("links \(server.url("/feed.xml"))"), "\(listed.stderr)")
  }

  @Test func sourceRulesOnTheCommandLine() throws {
    let empty = try FeedpullProcess.run(["-f", "jsonl", ""])
    #expect(empty.status == 2)
    #expect(empty.stdout.isEmpty)
    let data = try FeedpullProcess.run(["-f", "jsonl", "data:application/rss+xml,<rss/>"])
    #expect(data.status == 1)
    #expect((data.records.last?["error"] as? [String: Any])?["kind"] as? String == "protocol")
  }

  @Test func maxRedirectsZeroRefusesARedirect() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/old": .redirect(301, to: "/feed"), "/feed": .ok(rssFeed(items: 1)),
    ])
    let result = try FeedpullProcess.run([
      "-f", "jsonl", "--max-redirects", "0", server.url("/old"),
    ])
    #expect(result.status == 1)
    let error = result.records.last?["error"] as? [String: Any]
    #expect(error?["kind"] as? String == "redirects")
    #expect(error?["status"] as? Int == 301)
  }
}

/// Peak memory with sixteen large feeds in flight at once.
@Suite struct ConcurrentMemoryTests {
  @Test func sixteenLargeFeedsAtOnceStayFlat() throws {
    let feed = rssFeed(items: 40_000)
    var routes: [String: HTTPScript] = [:]
    for index in 0..<16 {
      routes["/big/\(index)"] = HTTPScript(framing: .chunked, steps: [.send(Array(feed.utf8))])
    }
    let server = try LoopbackHTTPServer(routes: routes)
    let result = try MeasuredProcess.run(
      // A debug build on a busy host may take longer than the default 30 s transfer timeout to
      // parse 640,000 items: the timeout is not what this test is about.
      ["-f", "jsonl", "-j", "16", "--per-host", "16", "--host-delay", "0", "--timeout", "10m"]
        + (0..<16).map { server.url("/big/\($0)") }, deadline: 300)
    let lines = result.stdout.split(separator: "\n")
    let failedEnds = lines.filter {
      $0.hasPrefix("{\"type\":\"end\"") && $0.contains("\"ok\":false")
    }
    #expect(result.status == 0, "\(failedEnds.prefix(3))")
    let items = lines.filter { $0.hasPrefix("{\"type\":\"item\"") }
    #expect(items.count == 16 * 40_000)
    // 16 × 3.5 MB of feed: held whole it would be over 56 MB of body alone.
    #expect(result.peakMemoryBytes < 64 << 20, "peak \(result.peakMemoryBytes >> 20) MiB")
  }
}

/// `--html` end to end: the option, and the document's base over HTTP.
@Suite struct HTMLOptionTests {
  static let feed = """
    <rss version="2.0"><channel><title>t</title><item><title>i</title>
    <description>&lt;p onclick="x()"&gt;Hi &lt;a href="rel/page"&gt;there&lt;/a&gt;&lt;script&gt;s()&lt;/script&gt;&lt;/p&gt;</description>
    </item></channel></rss>
    """

  /// Relative links inside markup resolve against `Content-Location` (itself resolved against
  /// the final URL), else the final URL; the record's `url` stays the final URL.
  @Test func contentLocationIsTheBase() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/plain/feed": .ok(Self.feed),
      "/moved/feed": .ok(Self.feed, headers: [("Content-Location", "/elsewhere/feed.xml")]),
      "/unsafe/feed": .ok(Self.feed, headers: [("Content-Location", "javascript:x")]),
    ])
    func summary(_ path: String) throws -> String? {
      let result = try FeedpullProcess.run(["-f", "jsonl", server.url(path)])
      #expect(result.status == 0)
      return result.records.first { $0["type"] as? String == "item" }?["summary"] as? String
    }
    let origin = server.url("")
    #expect(
      try summary("/plain/feed") == #"<p>Hi <a href="\#(origin)/plain/rel/page">there</a></p>"#)
    #expect(
      try summary("/moved/feed") == #"<p>Hi <a href="\#(origin)/elsewhere/rel/page">there</a></p>"#)
    #expect(
      try summary("/unsafe/feed") == #"<p>Hi <a href="\#(origin)/unsafe/rel/page">there</a></p>"#)
  }

  @Test func eachModeWritesItsOwnForm() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok(Self.feed)])
    var summaries: [String: (String?, String?)] = [:]
    for mode in ["safe", "raw", "text"] {
      let result = try FeedpullProcess.run(["-f", "jsonl", "--html", mode, server.url("/feed")])
      #expect(result.status == 0)
      let item = result.records.first { $0["type"] as? String == "item" }
      summaries[mode] = (item?["summary"] as? String, item?["summary_type"] as? String)
    }
    #expect(summaries["raw"]?.0?.contains("<script>") == true)
    #expect(summaries["raw"]?.1 == "text/html")
    #expect(summaries["safe"]?.1 == "text/html")
    #expect(summaries["text"]?.0 == "Hi there")
    #expect(summaries["text"]?.1 == "text/plain")
    let bad = try FeedpullProcess.run(["--html", "strip", server.url("/feed")])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("--html needs one of safe, raw, text"), "\(bad.stderr)")
  }
}
