import FeedPullSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull --watch` end to end: the real binary, real SQLite and libcurl against the loopback
/// server, on intervals of a second or two.
@Suite struct WatchCommandTests {
  static let shortIntervals = ["--min-interval", "1s", "--max-interval", "2s"]

  /// The start of `source`'s `end` record in the output.
  static func endOf(_ source: String) -> String {
    "\"type\":\"end\",\"source\":\"\(source)\""
  }

  @Test func newItemsAppearAsTheServerPublishesThemAndNoSourceIsAskedBeforeItIsDue() async throws {
    try await onItsOwnThread {
      let feeds = PublishedFeeds(["/a": ["a1"], "/b": ["b1"], "/c": ["c1"]])
      let server = try LoopbackHTTPServer(routes: [:], responder: feeds.script)
      let watch = WatchRun()
      defer { watch.remove() }
      let sources = ["/a", "/b", "/c"].map(server.url)
      let running = try watch.start(Self.shortIntervals + sources)
      #expect(running.waitForOutput("\"type\":\"end\"", count: 3, timeout: 30))
      feeds.publish("a2", on: "/a")
      #expect(running.waitForOutput("\"title\":\"a2\"", timeout: 30))
      feeds.publish("c2", on: "/c")
      #expect(running.waitForOutput("\"title\":\"c2\"", timeout: 30))
      running.send(SIGTERM)
      let result = running.finish(deadline: 30)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(
        result.itemStatuses.sorted() == ["a1:new", "a2:new", "b1:new", "c1:new", "c2:new"],
        "each item once, as it was published")
      // Each request after a source's first comes no earlier than the `next_check_at` that its
      // previous `end` announced. Due times are whole seconds of the wall clock, so two requests
      // of a source due a second apart may be a little less than a second apart; the server
      // notes arrivals on the monotonic clock, put on the wall clock here (the 10 ms allow for
      // reading the two clocks one after the other).
      let wallClockOffset = Date().timeIntervalSince1970 - ProcessInfo.processInfo.systemUptime
      let rfc3339 = ISO8601DateFormatter()
      for path in ["/a", "/b", "/c"] {
        let arrivals = server.arrivals(path)
        #expect(arrivals.count >= 2, "\(path) pulled again when due")
        let dues = result.records("end")
          .filter { $0["source"] as? String == server.url(path) }
          .compactMap { ($0["next_check_at"] as? String).flatMap(rfc3339.date(from:)) }
        #expect(dues.count >= arrivals.count - 1, "\(path): an end with its next check per pull")
        for (due, arrival) in zip(dues, arrivals.dropFirst()) {
          let asked = Date(timeIntervalSince1970: arrival + wallClockOffset)
          #expect(
            asked.timeIntervalSince(due) >= -0.01,
            "\(path) asked at \(asked) though due at \(due)")
        }
      }

      // The state was committed: a later run delivers nothing again.
      let again = try watch.state.run(sources)
      #expect(again.status == 0)
      #expect(again.records("item").isEmpty, "\(again.itemStatuses)")
    }
  }

  @Test func aRetryAfterHoldsTheHostAcrossPasses() async throws {
    try await onItsOwnThread {
      let limitedAsked = TSanVisibleMutex(0)
      let server = try LoopbackHTTPServer(routes: [
        "/other": .ok(subscribedFeed(["o"])), "/feed": .ok(subscribedFeed(["f"])),
      ]) { request in
        guard request.target == "/limited" else { return nil }
        let first = limitedAsked.withLock { count in
          count += 1
          return count == 1
        }
        return first
          ? HTTPScript(
            status: 429, headers: [("Retry-After", "4")], steps: [.send(Array("no".utf8))])
          : .ok(subscribedFeed(["l"]))
      }
      let elsewhere = "http://localhost:\(server.port)/feed"
      let watch = WatchRun()
      defer { watch.remove() }
      let running = try watch.start(
        Self.shortIntervals + [server.url("/limited"), server.url("/other"), elsewhere])
      #expect(running.waitForOutput("\"title\":\"l\"", timeout: 30), "pulled once the hold passed")
      #expect(running.waitForOutput("\"kind\":\"deferred\"", timeout: 1), "/other waited too")
      running.send(SIGTERM)
      let result = running.finish(deadline: 30)
      #expect(result.status == 0)
      guard let refused = server.arrivals("/limited").first else {
        Issue.record("no request for /limited")
        return
      }
      // Retry-After: 4 s, counted in whole seconds: nothing on that host for more than 3 s.
      for path in ["/limited", "/other"] {
        let during = server.arrivals(path).filter { $0 > refused + 0.05 && $0 < refused + 3 }
        #expect(during.isEmpty, "\(path) asked \(during.map { $0 - refused }) s after the 429")
      }
      #expect(server.arrivals("/limited").count >= 2)
      #expect(server.arrivals("/feed").count >= 2, "another host is not held")
    }
  }

  @Test func sighupRereadsTheListFile() async throws {
    try await onItsOwnThread {
      let feeds = PublishedFeeds(["/a": ["a1"], "/b": ["b1"], "/c": ["c1"]])
      let server = try LoopbackHTTPServer(routes: [:], responder: feeds.script)
      let list = FileManager.default.temporaryDirectory
        .appendingPathComponent("watch-list-\(UUID().uuidString).txt")
      defer { try? FileManager.default.removeItem(at: list) }
      try (server.url("/a") + "\n" + server.url("/b") + "\n").write(
        to: list, atomically: true, encoding: .utf8)
      let watch = WatchRun()
      defer { watch.remove() }
      let running = try watch.start(Self.shortIntervals + ["-i", list.path])
      #expect(running.waitForOutput("\"type\":\"end\"", count: 2, timeout: 30))
      try (server.url("/b") + "\n" + server.url("/c") + "\n").write(
        to: list, atomically: true, encoding: .utf8)
      running.send(SIGHUP)
      #expect(
        running.waitForOutput("\"title\":\"c1\"", timeout: 30), "an added source is due at once")
      // Every pull of /a has ended once c's record is out, as has any that was in flight.
      #expect(running.waitForOutput(Self.endOf(server.url("/c")), timeout: 30))
      let pullsOfA = server.arrivals("/a").count
      let pullsOfB = server.arrivals("/b").count
      #expect(running.waitForOutput(Self.endOf(server.url("/b")), count: 4, timeout: 30))
      #expect(server.arrivals("/b").count > pullsOfB)
      #expect(server.arrivals("/a").count <= pullsOfA + 1, "a removed source stops")
      running.send(SIGTERM)
      let result = running.finish(deadline: 30)
      #expect(result.status == 0)
      #expect(
        result.stderr.contains("list read again: 1 added, 1 removed, 2 sources"), "\(result.stderr)"
      )
      let listed = try FeedpullProcess.run(["state", "list", "--state", watch.state.statePath])
      #expect(listed.stdout.contains(server.url("/a")), "a removed source keeps its state")
    }
  }

  @Test func sigtermMidTransferEndsItCancelledCommitsTheStateAndExitsZero() async throws {
    try await onItsOwnThread {
      let stalledOnce = TSanVisibleMutex(false)
      let server = try LoopbackHTTPServer(routes: ["/ok": .ok(subscribedFeed(["k1", "k2"]))]) {
        request in
        guard request.target == "/slow" else { return nil }
        let first = stalledOnce.withLock { stalled in
          defer { stalled = true }
          return !stalled
        }
        return first
          ? HTTPScript(
            status: 200, framing: .chunked,
            steps: [.send(Array("<rss version=\"2.0\"><channel>".utf8)), .stallForever])
          : .ok(subscribedFeed(["s1"]))
      }
      let watch = WatchRun()
      defer { watch.remove() }
      let slow = server.url("/slow")
      let ok = server.url("/ok")
      let running = try watch.start(["--min-interval", "1h", slow, ok])
      #expect(running.waitForOutput(Self.endOf(ok), timeout: 30))
      #expect(server.requestsReceived.wait(for: 2, timeout: 30))
      running.send(SIGTERM)
      let result = running.finish(deadline: 30)
      #expect(result.status == 0, "\(result.stderr)")
      let cancelled = result.end(of: slow)
      #expect((cancelled?["error"] as? [String: Any])?["kind"] as? String == "cancelled")
      #expect(result.end(of: ok)?["ok"] as? Bool == true)

      let again = try watch.state.run(["--due", slow, ok])
      #expect(
        again.end(of: ok)?["skipped"] as? String == "not_due",
        "/ok is not due for an hour: its end was recorded")
      #expect(again.end(of: slow)?["ok"] as? Bool == true, "a cancelled source stays due")
      #expect(again.itemStatuses == ["s1:new"])
    }
  }

  @Test func anIdleWatchUsesNoCPU() async throws {
    try await onItsOwnThread {
      let server = try LoopbackHTTPServer(routes: ["/a": .ok(subscribedFeed(["a"]))])
      let watch = WatchRun()
      defer { watch.remove() }
      let running = try watch.start(["-v", "--min-interval", "1h", server.url("/a")])
      #expect(running.waitForOutput("\"type\":\"end\"", timeout: 30))
      let before = processCost(running.pid)
      // A measuring window, not a wait for an event: nothing is due for an hour.
      Thread.sleep(forTimeInterval: 3)
      let after = processCost(running.pid)
      running.send(SIGINT)
      let result = running.finish(deadline: 30)
      #expect(result.status == 0)
      // Sanity bounds only (a busy machine): a tick or a poll would show in both.
      #expect(after.cpu - before.cpu <= 0.05, "CPU \(after.cpu - before.cpu) s while idle")
      #expect(after.switches - before.switches < 50, "\(after.switches - before.switches) wake-ups")
      #expect(server.requests.count == 1)
      // With -v, going idle says until when and why.
      #expect(
        result.stderr.contains("idle until ")
          && result.stderr.contains("next check of \(server.url("/a")) (default)"),
        "\(result.stderr)")
    }
  }

  @Test func aClosedStandardOutputStopsTheWatchWithStatusOne() async throws {
    try await onItsOwnThread {
      let server = try LoopbackHTTPServer(routes: ["/a": .ok(subscribedFeed(["a"]))])
      let watch = WatchRun()
      defer { watch.remove() }
      // `head` takes the first byte and goes; the next pass's write then fails (EPIPE).
      let command =
        "'\(FeedpullProcess.binary.path)' --watch -f jsonl --state '\(watch.state.statePath)' "
        + "--min-interval 1s --max-interval 1s --host-delay 0 '\(server.url("/a"))' "
        + "| head -c 1 > /dev/null; echo \"status ${PIPESTATUS[0]}\""
      let result = try FeedpullProcess.run(
        executable: URL(fileURLWithPath: "/bin/bash"), ["-c", command], deadline: 60)
      #expect(result.stdout.contains("status 1"), "\(result.stdout) \(result.stderr)")
      #expect(result.stderr.contains("cannot write to standard output"))
    }
  }

  @Test func watchOptionsNeedStateAndWatch() async throws {
    try await onItsOwnThread {
      let noState = try FeedpullProcess.run(["--watch", "http://127.0.0.1:9/feed"])
      #expect(noState.status == 2)
      #expect(noState.stderr.contains("--watch needs --state"))
      #expect(noState.stdout.isEmpty)
      let noWatch = try FeedpullProcess.run([
        "--stats-interval", "5", "--state", "/nonexistent/x.db", "http://127.0.0.1:9/feed",
      ])
      #expect(noWatch.status == 2)
      #expect(noWatch.stderr.contains("--stats-interval needs --watch"))
      let standardInput = try FeedpullProcess.run(["--watch", "--state", "/nonexistent/x.db", "-"])
      #expect(standardInput.status == 2)
      #expect(standardInput.stderr.contains("standard input"))
    }
  }

  @Test func statsRecordsComeAtTheInterval() async throws {
    try await onItsOwnThread {
      let server = try LoopbackHTTPServer(routes: [
        "/a": .ok(subscribedFeed(["a"])), "/missing": .ok("no", status: 404),
      ])
      let watch = WatchRun()
      defer { watch.remove() }
      let running = try watch.start([
        "--min-interval", "1h", "--stats-interval", "0.2", server.url("/a"), server.url("/missing"),
      ])
      #expect(running.waitForOutput("\"type\":\"end\"", count: 2, timeout: 30))
      #expect(running.waitForOutput("\"type\":\"stats\"", count: 3, timeout: 30))
      running.send(SIGTERM)
      let result = running.finish(deadline: 30)
      let last = result.records("stats").last
      #expect(last?["sources"] as? Int == 2)
      #expect(last?["in_flight"] as? Int == 0)
      #expect(last?["items"] as? Int == 1)
      #expect((last?["errors"] as? [String: Any])?["http"] as? Int == 1)
      #expect(last?["next_due"] is String)
    }
  }
}
