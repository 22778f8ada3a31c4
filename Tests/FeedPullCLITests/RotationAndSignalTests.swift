import FeedPullSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A service's output rotated under a running watch, and Ctrl-C over many sources, end to end.
@Suite(.serialized) struct RotationAndSignalTests {
  /// `-o items.jsonl` + `mv` + SIGHUP during `watch`: records after the signal go to a new
  /// file by the old name, and every item is in exactly one of the two files.
  @Test func aRotatedOutputFileIsReopenedOnSIGHUPAndNothingIsLost() throws {
    let served = TSanVisibleMutex(0)
    let server = try LoopbackHTTPServer(routes: [:]) { _ in
      // Each pull finds one item more than the last.
      let count = served.withLock { count in
        count += 1
        return count
      }
      return .ok(CLIScratch.feed("Growing", items: (0..<count).map(String.init)))
    }
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let output = scratch.path("items.jsonl")
    let rotated = scratch.path("items.jsonl.1")
    let watch = try RunningFeedpull([
      "watch", "--state", scratch.path("state.db"), "-o", output, "--records", "item",
      "--min-interval", "1s", "--max-interval", "1s", "--host-delay", "0", server.url("/feed"),
    ])
    #expect(server.requestsReceived.wait(for: 3, timeout: 60))
    #expect(rename(output, rotated) == 0)
    watch.send(SIGHUP)
    #expect(server.requestsReceived.wait(for: 7, timeout: 60))
    watch.send(SIGTERM)
    let result = watch.finish(deadline: 60)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    func titles(_ path: String) throws -> [String] {
      try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
        let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(record?["type"] as? String == "item")
        return record?["title"] as? String ?? "?"
      }
    }
    let before = try titles(rotated)
    let after = try titles(output)
    #expect(!before.isEmpty && !after.isEmpty, "before \(before), after \(after)")
    let all = before + after
    #expect(Set(all).count == all.count, "an item written twice: \(all)")
    let numbers = all.compactMap { Int($0.dropFirst("Item ".count)) }.sorted()
    #expect(numbers == Array(0..<numbers.count), "an item lost: \(numbers)")
    #expect(numbers.count >= 6)
  }

  /// Ctrl-C over many sources: one summary line on stderr, not a line per source.
  @Test func sigintSaysHowManySourcesWereCancelledInOneLine() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/ok": .ok(CLIScratch.feed("Fast", items: ["1"])), "/slow": .silent,
    ])
    let sources = [server.url("/ok")] + (0..<40).map { server.url("/slow?\($0)") }
    let pull = try RunningFeedpull(
      ["-f", "jsonl", "-j", "8", "--per-host", "8", "--host-delay", "0"] + sources)
    #expect(pull.waitForOutput("\"type\":\"end\"", timeout: 60))
    #expect(server.requestsReceived.wait(for: 8, timeout: 60))
    pull.send(SIGINT)
    let result = pull.finish(deadline: 60)
    #expect(result.status == 130)
    let cancelled = result.records.filter {
      ($0["error"] as? [String: Any])?["kind"] as? String == "cancelled"
    }
    #expect(cancelled.count == 40)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines == ["feedpull: cancelled: 40 sources"], "\(result.stderr)")
  }
}
