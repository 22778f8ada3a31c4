import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A run without state over more sources than it starts at once (`SourceFeeder`'s window: 256
/// at `-j 8`): every source ends once, and a stop ends those never started `cancelled`.
@Suite(.serialized) struct LongListTests {
  @Test func everySourceOfALongListEndsOnce() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let paths = try (0..<700).map {
      try scratch.file("f\($0).xml", CLIScratch.feed("F\($0)", items: ["\($0)"]))
    }
    // Listed twice over: pulled once each.
    let list = try scratch.file("list.txt", (paths + paths).joined(separator: "\n") + "\n")
    let result = try FeedpullProcess.run(["-f", "jsonl", "-j", "8", "-i", list])
    #expect(result.status == 0, "\(result.stderr)")
    let ends = result.records.filter { $0["type"] as? String == "end" }
    #expect(ends.count == paths.count)
    #expect(Set(ends.compactMap { $0["source"] as? String }) == Set(paths))
    #expect(ends.allSatisfy { $0["ok"] as? Bool == true })
    let items = result.records.filter { $0["type"] as? String == "item" }
    #expect(items.count == paths.count)
  }

  @Test func sigintEndsTheSourcesNeverStartedCancelled() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/ok": .ok(CLIScratch.feed("Fast", items: ["1"])), "/slow": .silent,
    ])
    let sources = [server.url("/ok")] + (0..<400).map { server.url("/slow?\($0)") }
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let list = try scratch.file("list.txt", sources.joined(separator: "\n") + "\n")
    let pull = try RunningFeedpull(
      ["-f", "jsonl", "-j", "8", "--per-host", "8", "--host-delay", "0", "-i", list])
    #expect(pull.waitForOutput("\"type\":\"end\"", timeout: 60))
    #expect(server.requestsReceived.wait(for: 8, timeout: 60))
    pull.send(SIGINT)
    let result = pull.finish(deadline: 60)
    #expect(result.status == 130)
    let ends = result.records.filter { $0["type"] as? String == "end" }
    #expect(ends.count == sources.count)
    #expect(Set(ends.compactMap { $0["source"] as? String }) == Set(sources))
    let cancelled = ends.filter {
      ($0["error"] as? [String: Any])?["kind"] as? String == "cancelled"
    }
    #expect(cancelled.count == 400)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines == ["feedpull: cancelled: 400 sources"], "\(result.stderr)")
  }
}
