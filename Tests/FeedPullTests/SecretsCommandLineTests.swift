import Foundation
import TestSupport
import Testing

extension NetworkPolicyEndToEnd {
  /// A password in a source URL is sent (as basic authentication) and never written: not in
  /// records (`source`, `url`, links resolved against it), not in text output, not on stderr,
  /// not in `state list` or `state export`.
  @Suite struct SecretsCommandLineTests {
    static let password = "s3cr3t-Pa55"

    static func server() throws -> LoopbackHTTPServer {
      let feed = """
        <rss version="2.0"><channel><title>Private</title><link>/</link>
        <item><title>One</title><link>/posts/1</link><guid>/posts/1</guid></item>
        </channel></rss>
        """
      let page = """
        <!doctype html><html><head><link rel=alternate type=application/rss+xml href=/feed.xml>
        </head><body>Private blog</body></html>
        """
      return try LoopbackHTTPServer(routes: [
        "/feed.xml": .ok(feed), "/missing": .ok("no", status: 404),
        "/": .ok(page, headers: [("Content-Type", "text/html")]),
      ])
    }

    static func withPassword(_ url: String) -> String {
      url.replacingOccurrences(of: "http://", with: "http://reader:\(password)@")
    }

    @Test func thePasswordIsSentButNeverWritten() throws {
      let server = try Self.server()
      let sources = ["/feed.xml", "/missing", "/"].map { Self.withPassword(server.url($0)) }
      let state = try TestTool.temporaryDirectory("feedpull-secrets") + "/state.db"
      var outputs: [String] = []
      for format in ["jsonl", "text"] {
        let result = try FeedpullProcess.run(
          ["-f", format, "-v", "--host-delay", "0", "--no-discover"] + sources)
        outputs += [result.stdout, result.stderr]
        #expect(result.stdout.contains("reader:***@"), "\(format): \(result.stdout)")
      }
      let discovered = try FeedpullProcess.run(
        ["-f", "jsonl", "-v", "--host-delay", "0", "--state", state] + sources)
      outputs += [discovered.stdout, discovered.stderr]
      for command in [["list"], ["export"], ["export", "--opml"]] {
        let result = try FeedpullProcess.run(["state"] + command + ["--state", state])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("reader:***@"), "\(command): \(result.stdout)")
        outputs += [result.stdout, result.stderr]
      }
      for output in outputs {
        #expect(!output.contains(Self.password), "\(output)")
      }
      // Sent as basic authentication ("reader:s3cr3t-Pa55"), to every request, the discovered
      // feed on the page's own site included.
      let authorization = "Basic " + Data("reader:\(Self.password)".utf8).base64EncodedString()
      #expect(!server.requests.isEmpty)
      #expect(server.requests.allSatisfy { $0.headers["authorization"] == authorization })
      // The state keeps what it needs: a second pull still authenticates.
      let again = try FeedpullProcess.run(["-f", "jsonl", "--state", state, "--force"] + sources)
      #expect(!again.stdout.contains(Self.password))
      #expect(server.requests.allSatisfy { $0.headers["authorization"] == authorization })
    }

    @Test func linksResolvedAgainstAPrivateFeedCarryNoPassword() throws {
      let server = try Self.server()
      let result = try FeedpullProcess.run([
        "-f", "jsonl", Self.withPassword(server.url("/feed.xml")),
      ])
      let item = result.records.first { $0["type"] as? String == "item" }
      #expect(item?["link"] as? String == server.url("/posts/1"))
      let feed = result.records.first { $0["type"] as? String == "feed" }
      #expect(feed?["link"] as? String == server.url("/"))
    }

    @Test func netrcSuppliesCredentialsForItsHostOnly() throws {
      let server = try Self.server()
      let directory = try TestTool.temporaryDirectory("feedpull-netrc")
      let netrc = directory + "/netrc"
      try "machine 127.0.0.1 login netrc-user password \(Self.password)\n"
        .write(toFile: netrc, atomically: true, encoding: .utf8)
      let result = try FeedpullProcess.run(
        ["-f", "jsonl", "-v", "--netrc-file", netrc, server.url("/feed.xml")])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(!(result.stdout + result.stderr).contains(Self.password))
      let expected = "Basic " + Data("netrc-user:\(Self.password)".utf8).base64EncodedString()
      #expect(server.requests.first?.headers["authorization"] == expected)
      // Another host name for the same server: the file has no entry for it.
      let other = server.url("/feed.xml").replacingOccurrences(of: "127.0.0.1", with: "localhost")
      _ = try FeedpullProcess.run(["-f", "jsonl", "--netrc-file", netrc, other])
      #expect(server.requests.last?.headers["authorization"] == nil)
      // Without the option the file is not read.
      _ = try FeedpullProcess.run(["-f", "jsonl", server.url("/feed.xml")])
      #expect(server.requests.last?.headers["authorization"] == nil)
    }
  }
}
