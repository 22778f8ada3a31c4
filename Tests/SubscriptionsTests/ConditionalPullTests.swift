import FeedPullSupport
import Foundation
import TestSupport
import Testing

/// Validators, 304s, identical bodies and the daily unconditional pull, end to end: the real
/// binary, a real SQLite file, libcurl against the loopback server.
@Suite struct ConditionalPullTests {
  static let now: Int64 = 1_796_126_400

  @Test func theSecondRunSendsValidatorsGetsA304AndWritesNoItems() throws {
    let body = subscribedFeed(["a", "b", "c"])
    let server = try LoopbackHTTPServer(routes: [:]) { request in
      if request.headers["if-none-match"] == "\"v1\""
        || request.headers["if-modified-since"] == "Tue, 01 Dec 2026 10:00:00 GMT"
      {
        return HTTPScript(status: 304, headers: [("ETag", "\"v1\"")])
      }
      return .ok(
        body,
        headers: [("ETag", "\"v1\""), ("Last-Modified", "Tue, 01 Dec 2026 10:00:00 GMT")])
    }
    let state = StateRun()
    defer { state.remove() }
    let url = server.url("/feed")
    let first = try state.run([url], now: Self.now)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.itemStatuses == ["a:new", "b:new", "c:new"])
    let firstEnd = first.end(of: url)
    #expect(firstEnd?["new_items"] as? Int == 3)
    #expect(firstEnd?["next_check_reason"] as? String == "default")
    #expect(firstEnd?["next_check_at"] as? String == "2026-12-01T13:00:00Z")
    #expect(server.requests.first?.headers["if-none-match"] == nil)

    let second = try state.run([url], now: Self.now + 3600)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.records("item").isEmpty)
    let end = second.end(of: url)
    #expect(end?["status"] as? Int == 304)
    #expect(end?["not_modified"] as? Bool == true)
    #expect(end?["items"] as? Int == 0)
    #expect(server.requests.count == 2)
    #expect(server.requests.last?.headers["if-none-match"] == "\"v1\"")
    #expect(
      server.requests.last?.headers["if-modified-since"] == "Tue, 01 Dec 2026 10:00:00 GMT")
  }

  @Test func lyingValidatorsAreCaughtByTheDailyUnconditionalPull() throws {
    let items = TSanVisibleMutex(["a"])
    let server = try LoopbackHTTPServer(routes: [:]) { request in
      // Always the same ETag, whatever the content: a 304 whenever it is asked.
      if request.headers["if-none-match"] == "\"same\"" {
        return HTTPScript(status: 304, headers: [("ETag", "\"same\"")])
      }
      return .ok(subscribedFeed(items.withLock { $0 }), headers: [("ETag", "\"same\"")])
    }
    let state = StateRun()
    defer { state.remove() }
    let url = server.url("/feed")
    #expect(try state.run([url], now: Self.now).itemStatuses == ["a:new"])
    items.withLock { $0 = ["b", "a"] }
    let lied = try state.run([url], now: Self.now + 3600)
    #expect(lied.records("item").isEmpty)
    #expect(lied.end(of: url)?["not_modified"] as? Bool == true)
    let daily = try state.run([url], now: Self.now + 86_400 + 60)
    #expect(daily.status == 0, "\(daily.stderr)")
    #expect(daily.itemStatuses == ["b:new"])
    #expect(server.requests.count == 3)
    #expect(server.requests.last?.headers["if-none-match"] == nil)
  }

  @Test func theSameBytesWithoutValidatorsWriteNoItemsEvenWithAll() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok(subscribedFeed(["a", "b"]))])
    let state = StateRun()
    defer { state.remove() }
    let url = server.url("/feed")
    #expect(try state.run([url], now: Self.now).records("item").count == 2)
    for arguments in [[url], ["--all", url]] {
      let again = try state.run(arguments, now: Self.now + 3600)
      #expect(again.status == 0)
      #expect(again.records("item").isEmpty, "\(arguments)")
      let end = again.end(of: url)
      #expect(end?["not_modified"] as? Bool == true)
      #expect(end?["status"] as? Int == 200)
    }
  }

  @Test func newUpdatedAndSeenItemsAcrossRuns() throws {
    let version = TSanVisibleMutex(0)
    let server = try LoopbackHTTPServer(routes: [:]) { _ in
      switch version.withLock({ $0 }) {
      case 0: .ok(subscribedFeed(["a", "b", "c"]))
      case 1: .ok(subscribedFeed(["d", "a", "b", "c"]))
      default:
        .ok(subscribedFeed(["d", "a", "B", "c"], guids: ["d", "a", "b", "c"]))
      }
    }
    let state = StateRun()
    defer { state.remove() }
    let url = server.url("/feed")
    _ = try state.run([url], now: Self.now)
    version.withLock { $0 = 1 }
    let grown = try state.run([url], now: Self.now + 3600)
    #expect(grown.itemStatuses == ["d:new"])
    #expect(grown.end(of: url)?["new_items"] as? Int == 1)
    version.withLock { $0 = 2 }
    let edited = try state.run([url], now: Self.now + 7200)
    #expect(edited.itemStatuses == ["B:updated"])
    #expect(edited.end(of: url)?["updated_items"] as? Int == 1)
    let all = try state.run(["--all", url], now: Self.now + 9000)
    // The same body again: --all writes nothing for it.
    #expect(all.records("item").isEmpty)
  }

  @Test func aGuidThatChangesOnEveryPullDeliversNothingAgain() throws {
    let pull = TSanVisibleMutex(0)
    let server = try LoopbackHTTPServer(routes: [:]) { _ in
      let number = pull.withLock { value -> Int in
        value += 1
        return value
      }
      return .ok(
        subscribedFeed(["a", "b", "c"], guids: ["a\(number)", "b\(number)", "c\(number)"]))
    }
    let state = StateRun()
    defer { state.remove() }
    let url = server.url("/feed")
    #expect(try state.run([url], now: Self.now).records("item").count == 3)
    for step in 1...2 {
      let again = try state.run([url], now: Self.now + Int64(step) * 3600)
      #expect(again.status == 0)
      #expect(again.records("item").isEmpty, "pull \(step + 1): \(again.itemStatuses)")
    }
  }

  @Test func cacheControlAndExpiresSetTheNextCheck() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/cached": .ok(subscribedFeed(["a"]), headers: [("Cache-Control", "public, max-age=7200")]),
      "/expiring": .ok(
        subscribedFeed(["b"]), headers: [("Expires", "Wed, 01 Dec 2100 00:00:00 GMT")]),
      "/broken": .ok("<html>oops</html>", status: 500),
    ])
    let state = StateRun()
    defer { state.remove() }
    let cached = server.url("/cached")
    let expiring = server.url("/expiring")
    let broken = server.url("/broken")
    let result = try state.run([cached, expiring, broken], now: Self.now)
    #expect(result.end(of: cached)?["next_check_reason"] as? String == "cache_control")
    #expect(result.end(of: cached)?["next_check_at"] as? String == "2026-12-01T14:00:00Z")
    // Far in the future: clamped to the 24-hour maximum, the reason kept.
    #expect(result.end(of: expiring)?["next_check_reason"] as? String == "expires")
    #expect(result.end(of: expiring)?["next_check_at"] as? String == "2026-12-02T12:00:00Z")
    let failed = result.end(of: broken)
    #expect(failed?["next_check_reason"] as? String == "error_backoff")
    #expect(failed?["errors_in_row"] as? Int == 1)
  }
}
