import Foundation
import TestSupport
import Testing

extension NetworkPolicyEndToEnd {
  /// A redirect from https to http: refused with `protocol` (and nothing sent to the http URL)
  /// unless `--allow-downgrade`; with `--state`, never adopted as the subscription's new URL.
  @Suite struct DowngradeCommandLineTests {
    static func servers() throws -> (plain: LoopbackHTTPServer, secure: LoopbackScriptServer) {
      let plain = try LoopbackHTTPServer(routes: ["/feed.xml": .ok(rssFeed(items: 1))])
      let certificates = try TestCertificates.make()
      let secure = try LoopbackScriptServer(
        routes: [
          "/moved": .redirect(301, to: plain.url("/feed.xml")),
          "/found": .redirect(302, to: plain.url("/feed.xml")),
          "/upgrade": .redirect(301, to: "/feed.xml"),
          "/feed.xml": .ok(rssFeed(items: 1)),
        ], certificate: certificates.server)
      return (plain, secure)
    }

    static func run(_ arguments: [String], environment: [String] = []) throws
      -> FeedpullProcess.Result
    {
      try FeedpullProcess.run(
        executable: URL(fileURLWithPath: "/usr/bin/env"),
        environment + [
          FeedpullProcess.binary.path, "-f", "jsonl", "--cacert",
          try TestCertificates.make().caFile, "--host-delay", "0",
        ] + arguments)
    }

    @Test func aRedirectFromHTTPSToHTTPIsRefusedNamingTheDowngrade() throws {
      let (plain, secure) = try Self.servers()
      let result = try Self.run([secure.url("/moved"), secure.url("/found")])
      #expect(result.status == 1)
      let ends = result.records.filter { $0["type"] as? String == "end" }
      #expect(ends.count == 2)
      for end in ends {
        let error = end["error"] as? [String: Any]
        #expect(error?["kind"] as? String == "protocol", "\(end)")
        let message = error?["message"] as? String ?? ""
        #expect(message.contains("https to http"), "\(message)")
        #expect(message.contains(plain.url("/feed.xml")), "\(message)")
        #expect([301, 302].contains(error?["status"] as? Int ?? 0))
      }
      #expect(result.stderr.contains("downgrade"))
      // Nothing was sent in plain text.
      #expect(plain.connectionCount == 0)
    }

    @Test func allowDowngradeFollowsIt() throws {
      let (plain, secure) = try Self.servers()
      let result = try Self.run(["--allow-downgrade", secure.url("/moved")])
      #expect(result.status == 0, "\(result.stdout)")
      let end = result.records.last
      #expect(end?["url"] as? String == plain.url("/feed.xml"))
      #expect(end?["permanent_redirect"] as? Bool == true)
      #expect(plain.requests.count == 1)
    }

    @Test func aDowngradingPermanentRedirectIsNeverAdopted() throws {
      let (plain, secure) = try Self.servers()
      defer { withExtendedLifetime(plain) {} }
      let state = try TestTool.temporaryDirectory("feedpull-downgrade") + "/state.db"
      // Each pull sees the same permanent redirect; three in a row would adopt an upgrade (the
      // control below), never this downgrade.
      for _ in 0..<4 {
        let pull = try Self.run(
          ["--allow-downgrade", "--state", state, secure.url("/moved"), secure.url("/upgrade")])
        #expect(pull.status == 0, "\(pull.stdout) \(pull.stderr)")
      }
      let list = try FeedpullProcess.run(["state", "list", "--state", state])
      let lines = list.stdout.split(separator: "\n")
      let moved = lines.first { $0.hasPrefix(secure.url("/moved") + "\t") }
      let upgrade = lines.first { $0.hasPrefix(secure.url("/upgrade") + "\t") }
      #expect(moved != nil && moved?.contains("moved_to") == false, "\(list.stdout)")
      #expect(upgrade?.contains("moved_to=\(secure.url("/feed.xml"))") == true, "\(list.stdout)")
      #expect(plain.requests.count == 4)
    }
  }
}
