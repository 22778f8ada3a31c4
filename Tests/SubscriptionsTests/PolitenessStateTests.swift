import Foundation
import TestSupport
import Testing

/// What the state remembers about servers: a Retry-After held per host, a 410, permanent
/// redirects, `--due`, and the options that need `--state`.
@Suite struct PolitenessStateTests {
  static let now: Int64 = 1_796_126_400

  @Test func aRetryAfterFromOneHostHoldsEverySourceOnItAndOnlyThatHost() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/limited": HTTPScript(
        status: 429, headers: [("Retry-After", "3600")], steps: [.send(Array("slow".utf8))]),
      "/other": .ok(subscribedFeed(["o"])),
      "/feed": .ok(subscribedFeed(["f"])),
    ])
    let limited = server.url("/limited")
    let other = server.url("/other")
    let elsewhere = "http://localhost:\(server.port)/feed"
    let state = StateRun()
    defer { state.remove() }
    let first = try state.run(
      ["--max-interval", "5s", "--min-interval", "1s", limited, other, elsewhere], now: Self.now)
    #expect(first.status == 1)
    let limitedEnd = first.end(of: limited)
    #expect(limitedEnd?["retry_after"] as? Int == 3600)
    #expect(limitedEnd?["next_check_reason"] as? String == "retry_after")
    #expect(limitedEnd?["errors_in_row"] as? Int == 0)
    #expect((limitedEnd?["error"] as? [String: Any])?["kind"] as? String == "http")
    let requestsBefore = server.requests.count
    #expect(requestsBefore == 3)

    let later = try state.run(["--due", limited, other, elsewhere], now: Self.now + 10)
    let newRequests = server.requests.dropFirst(requestsBefore)
    #expect(newRequests.map(\.target) == ["/feed"])
    #expect(newRequests.first?.headers["host"]?.hasPrefix("localhost") == true)
    let deferred = later.end(of: other)
    #expect((deferred?["error"] as? [String: Any])?["kind"] as? String == "deferred")
    #expect(deferred?["next_check_at"] as? String == "2026-12-01T13:00:00Z")
    #expect(later.end(of: limited)?["skipped"] as? String == "not_due", "it waits an hour")
    #expect(later.end(of: limited)?["next_check_at"] as? String == "2026-12-01T13:00:00Z")
    #expect(later.end(of: elsewhere)?["ok"] as? Bool == true)

    let forced = try state.run(["--due", "--force", limited, other, elsewhere], now: Self.now + 20)
    #expect(forced.end(of: other)?["ok"] as? Bool == true)
  }

  @Test func aRetryAfterDuringARunHoldsTheHostsSourcesNotStartedYet() throws {
    var routes: [String: HTTPScript] = [
      "/limited": HTTPScript(
        status: 429, headers: [("Retry-After", "3600")], steps: [.send(Array("slow".utf8))])
    ]
    for index in 0..<10 { routes["/f\(index)"] = .ok(subscribedFeed(["i\(index)"])) }
    let server = try LoopbackHTTPServer(routes: routes)
    let sources = [server.url("/limited")] + (0..<10).map { server.url("/f\($0)") }
    let state = StateRun()
    defer { state.remove() }
    // One job: the window of started sources is two, the 429 comes first.
    let result = try state.run(["-j", "1"] + sources, now: Self.now)
    #expect(result.records("end").count == 11)
    #expect(server.requests.count <= 2, "\(server.requests.map(\.target))")
    let deferred = result.records("end").filter {
      ($0["error"] as? [String: Any])?["kind"] as? String == "deferred"
    }
    #expect(deferred.count >= 9)
    #expect(deferred.allSatisfy { $0["next_check_at"] as? String == "2026-12-01T13:00:00Z" })
  }

  @Test func aGoneSourceIsDeferredUntilForced() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/gone": .ok("gone", headers: [("Content-Type", "text/plain")], status: 410)
    ])
    let url = server.url("/gone")
    let state = StateRun()
    defer { state.remove() }
    _ = try state.run([url], now: Self.now)
    let again = try state.run([url], now: Self.now + 60)
    #expect(server.requests.count == 1)
    #expect((again.end(of: url)?["error"] as? [String: Any])?["kind"] as? String == "deferred")
    _ = try state.run(["--force", url], now: Self.now + 120)
    #expect(server.requests.count == 2)
  }

  @Test func aPermanentRedirectIsAdoptedAfterThreePullsInARow() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/old": .redirect(301, to: "/new"), "/new": .ok(subscribedFeed(["a"])),
    ])
    let old = server.url("/old")
    let state = StateRun()
    defer { state.remove() }
    for pull in 0..<3 {
      let result = try state.run([old], now: Self.now + Int64(pull) * 3600)
      #expect(result.status == 0)
      let moved = result.end(of: old)?["moved_to"] as? String
      #expect(moved == (pull == 2 ? server.url("/new") : nil), "pull \(pull + 1)")
    }
    let after = try state.run([old], now: Self.now + 4 * 3600)
    #expect(after.end(of: old)?["moved_to"] as? String == server.url("/new"))
    #expect(server.requests.last?.target == "/new")
    #expect(server.requests.filter { $0.target == "/old" }.count == 3)
  }

  @Test func dueRunsPullOnlyWhatIsDue() throws {
    let server = try LoopbackHTTPServer(routes: ["/a": .ok(subscribedFeed(["a"]))])
    let url = server.url("/a")
    let state = StateRun()
    defer { state.remove() }
    _ = try state.run(["--due", url], now: Self.now)
    let early = try state.run(["--due", "-v", url], now: Self.now + 600)
    // Named and not due: one `end` that says so and until when, and a line with `-v`.
    #expect(early.records("end").count == 1)
    #expect(early.end(of: url)?["ok"] as? Bool == true)
    #expect(early.end(of: url)?["skipped"] as? String == "not_due")
    #expect(early.end(of: url)?["next_check_at"] as? String == "2026-12-01T13:00:00Z")
    #expect(early.end(of: url)?["next_check_reason"] as? String == "default")
    #expect(early.stderr.contains("not due until 2026-12-01T13:00:00Z"), "\(early.stderr)")
    #expect(early.records("item").isEmpty)
    #expect(early.status == 0)
    _ = try state.run(["--due", url], now: Self.now + 3600)
    #expect(server.requests.count == 2)
  }

  @Test func dueAloneWritesNothingForSourcesNotDue() throws {
    let server = try LoopbackHTTPServer(routes: ["/a": .ok(subscribedFeed(["a"]))])
    let state = StateRun()
    defer { state.remove() }
    _ = try state.run([server.url("/a")], now: Self.now)
    let due = try state.run(["--due"], now: Self.now + 600)
    #expect(due.status == 0, "\(due.stderr)")
    #expect(due.stdout.isEmpty)
    #expect(server.requests.count == 1)
  }

  @Test func dueAloneTakesTheStateAsTheList() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/a": .ok(subscribedFeed(["a"])), "/b": .ok(subscribedFeed(["b"])),
    ])
    let state = StateRun()
    defer { state.remove() }
    _ = try state.run([server.url("/a"), server.url("/b")], now: Self.now)
    let due = try state.run(["--due"], now: Self.now + 3600)
    #expect(due.status == 0, "\(due.stderr)")
    #expect(
      Set(due.records("end").compactMap { $0["source"] as? String }) == [
        server.url("/a"), server.url("/b"),
      ])
    #expect(server.requests.count == 4)
  }

  @Test(arguments: [["--due"], ["--all"], ["--force"], ["state", "list"]])
  func optionsThatNeedStateAreUsageErrorsWithoutIt(_ arguments: [String]) throws {
    let result = try FeedpullProcess.run(arguments + ["http://127.0.0.1:9/feed"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("--state"))
  }

  @Test(arguments: [
    ["--min-interval", "soon", "http://127.0.0.1:9/feed"],
    ["--max-interval", "0", "http://127.0.0.1:9/feed"],
    ["--min-interval", "2h", "--max-interval", "1h", "http://127.0.0.1:9/feed"],
    ["state", "drop"], ["state", "forget"], ["state", "list", "extra"],
  ])
  func badStateArgumentsAreUsageErrors(_ arguments: [String]) throws {
    let state = StateRun()
    defer { state.remove() }
    let result = try FeedpullProcess.run(arguments + ["--state", state.statePath])
    #expect(result.status == 2, "\(arguments): \(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test func aStateFileThatIsNotADatabaseFailsClearly() throws {
    let state = StateRun()
    defer { state.remove() }
    try Data("not a database, just text that is long enough to be a header".utf8)
      .write(to: URL(fileURLWithPath: state.statePath))
    let result = try FeedpullProcess.run(["--state", state.statePath, "http://127.0.0.1:9/feed"])
    #expect(result.status == 1)
    #expect(result.stderr.contains(state.statePath), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test func stateListForgetAndExport() throws {
    let server = try LoopbackHTTPServer(routes: ["/a": .ok(subscribedFeed(["a"]))])
    let url = server.url("/a")
    let state = StateRun()
    defer { state.remove() }
    _ = try state.run([url], now: Self.now)
    let list = try FeedpullProcess.run(["state", "list", "--state", state.statePath])
    #expect(list.status == 0)
    #expect(list.stdout.contains(url))
    let export = try FeedpullProcess.run(["state", "export", "--state", state.statePath])
    let exported = export.records
    #expect(exported.count == 1)
    #expect(exported.first?["source"] as? String == url)
    let forget = try FeedpullProcess.run(["state", "forget", url, "--state", state.statePath])
    #expect(forget.status == 0)
    let empty = try FeedpullProcess.run(["state", "export", "--state", state.statePath])
    #expect(empty.stdout.isEmpty)
    // A source imported with an escape sequence in its name is listed without it.
    let crafted = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-crafted-\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: crafted) }
    try Data(
      ("{\"type\":\"subscription\",\"source\":\"http://x.example/\\u001b]52;c;aGk=\\u0007"
        + "\\u001b[2Jfeed\",\"errors_in_row\":0,\"identity_mode\":\"id\",\"pulls\":0}\n").utf8
    ).write(to: URL(fileURLWithPath: crafted))
    let imported = try FeedpullProcess.run(["state", "import", crafted, "--state", state.statePath])
    #expect(imported.status == 0)
    let listed = try FeedpullProcess.run(["state", "list", "--state", state.statePath])
    #expect(listed.stdout.contains("http://x.example/]52;c;aGk=[2Jfeed\tdue"))
    #expect(!listed.stdout.contains("\u{1b}") && !listed.stdout.contains("\u{07}"))
  }
}
