import Foundation
import TestSupport
import Testing

extension NetworkPolicyEndToEnd {
  /// `--deny-private`, `--allow-net` and `--network-only` end to end: a "public" server on
  /// 127.0.0.2 (let through with `--allow-net 127.0.0.2/32`) that sends feedpull towards
  /// 127.0.0.1 in every way it can, while 127.0.0.1 stays refused. Only loopback addresses are
  /// ever used.
  @Suite struct AddressPolicyCommandLineTests {
    /// The target on 127.0.0.1 and the routes of the 127.0.0.2 server that lead to it.
    static func servers() throws -> (target: LoopbackHTTPServer, outside: LoopbackScriptServer) {
      let target = try LoopbackHTTPServer(routes: ["/feed.xml": .ok(rssFeed(items: 1))])
      let port = target.port
      let page = """
        <!doctype html><html><head><link rel=alternate type=application/rss+xml \
        href="http://127.0.0.1:\(port)/feed.xml"></head><body>Blog</body></html>
        """
      let outside = try LoopbackScriptServer(
        address: "127.0.0.2",
        routes: [
          "/feed.xml": .ok(rssFeed(items: 2)),
          "/redirect": .redirect(to: "http://127.0.0.1:\(port)/feed.xml"),
          "/decimal": .redirect(301, to: "http://2130706433:\(port)/feed.xml"),
          "/octal": .redirect(to: "http://0177.0.0.1:\(port)/feed.xml"),
          "/hex": .redirect(to: "http://0x7f.0.0.1:\(port)/feed.xml"),
          "/mapped": .redirect(to: "http://[::ffff:127.0.0.1]:\(port)/feed.xml"),
          "/localhost": .redirect(to: "http://localhost:\(port)/feed.xml"),
          "/page": .ok(page, contentType: "text/html"),
        ])
      return (target, outside)
    }

    static let paths = [
      "/redirect", "/decimal", "/octal", "/hex", "/mapped", "/localhost", "/page",
    ]

    static func ends(_ result: FeedpullProcess.Result) -> [String: [String: any Sendable]] {
      var ends: [String: [String: any Sendable]] = [:]
      for record in result.records where record["type"] as? String == "end" {
        if let source = record["source"] as? String { ends[source] = record }
      }
      return ends
    }

    static func kind(_ end: [String: any Sendable]?) -> String? {
      (end?["error"] as? [String: Any])?["kind"] as? String
    }

    @Test func everyWayTo127001IsDeniedWhile127002IsAllowed() throws {
      let (target, outside) = try Self.servers()
      let sources = Self.paths.map(outside.url) + [outside.url("/feed.xml")]
      let result = try FeedpullProcess.run(
        ["-f", "jsonl", "--deny-private", "--allow-net", "127.0.0.2/32", "--host-delay", "0"]
          + sources)
      #expect(result.status == 1)
      let ends = Self.ends(result)
      for path in Self.paths {
        let end = ends[outside.url(path)]
        #expect(Self.kind(end) == "denied", "\(path): \(String(describing: end))")
        let message = (end?["error"] as? [String: Any])?["message"] as? String ?? ""
        // `localhost` is both 127.0.0.1 and ::1: each address is refused, the last one named.
        #expect(message.contains("127.0.0.1") || message.contains("::1"), "\(path): \(message)")
      }
      #expect(ends[outside.url("/feed.xml")]?["ok"] as? Bool == true)
      // Refused before connecting: the target never saw a connection.
      #expect(target.connectionCount == 0)
      #expect(target.requests.isEmpty)
    }

    @Test func withoutThePolicyTheSameSpellingsReach127001() throws {
      // The control: each way above really leads to the target when nothing denies it.
      let (target, outside) = try Self.servers()
      let result = try FeedpullProcess.run(
        ["-f", "jsonl", "--host-delay", "0"] + Self.paths.map(outside.url))
      #expect(result.status == 0, "\(result.stdout)")
      #expect(target.requests.count == Self.paths.count)
    }

    @Test func aSourceNamingAPrivateAddressDirectlyIsDenied() throws {
      let target = try LoopbackHTTPServer(routes: ["/feed.xml": .ok(rssFeed(items: 1))])
      let port = target.port
      let sources = [
        "http://127.0.0.1:\(port)/feed.xml", "http://2130706433:\(port)/feed.xml",
        "http://[::ffff:127.0.0.1]:\(port)/feed.xml", "http://localhost:\(port)/feed.xml",
        "http://[::1]:\(port)/feed.xml",
      ]
      let result = try FeedpullProcess.run(
        ["-f", "jsonl", "--deny-private", "--host-delay", "0"] + sources)
      let ends = Self.ends(result)
      for source in sources {
        #expect(Self.kind(ends[source]) == "denied", "\(source)")
      }
      #expect(target.connectionCount == 0)
    }

    @Test func allowNetWithoutDenyPrivateAndABadRangeAreUsageErrors() throws {
      let lonely = try FeedpullProcess.run(["--allow-net", "10.0.0.0/8", "feeds/rss20.xml"])
      #expect(lonely.status == 2)
      #expect(lonely.stdout.isEmpty)
      let bad = try FeedpullProcess.run(["--deny-private", "--allow-net", "intranet", "x.xml"])
      #expect(bad.status == 2)
      #expect(bad.stderr.contains("for example: --allow-net"), "\(bad.stderr)")
    }

    @Test func networkOnlyRefusesEveryLocalSource() throws {
      let server = try LoopbackHTTPServer(routes: ["/feed.xml": .ok(rssFeed(items: 1))])
      let sample = RepositoryPaths.feeds.appendingPathComponent("rss20.xml").path
      let list = try TestTool.temporaryDirectory("feedpull-list") + "/list.txt"
      try [sample, "file://" + sample, server.url("/feed.xml")].joined(separator: "\n")
        .write(toFile: list, atomically: true, encoding: .utf8)
      let result = try FeedpullProcess.run(
        ["-f", "jsonl", "--network-only", "-i", list, "-", "/etc/passwd"],
        input: Data(rssFeed(items: 1).utf8))
      #expect(result.status == 1)
      let ends = Self.ends(result)
      for source in [sample, "file://" + sample, "-", "/etc/passwd"] {
        #expect(Self.kind(ends[source]) == "denied", "\(source)")
      }
      #expect(ends[server.url("/feed.xml")]?["ok"] as? Bool == true)
      // Nothing of the local files was read into the output.
      let items = result.records.filter { $0["type"] as? String == "item" }
      #expect(items.count == 1)
      #expect(!result.stdout.contains("root:"))
    }
  }
}
