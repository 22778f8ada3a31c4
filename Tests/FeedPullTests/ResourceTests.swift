import Foundation
import TestSupport
import Testing

@testable import FeedPull

/// Many transfers through one worker leave nothing behind: no file descriptors, no memory.
@Suite struct ResourceTests {
  static func openFileDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
  }

  @Test func tenThousandTransfersLeakNoDescriptors() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": .ok(rssFeed(items: 2)),
      "/gone": .ok("<html>gone</html>", status: 404),
    ])
    var options = FeedPuller.Configuration.forLoopbackTests
    options.maxConcurrentTransfers = 16
    let puller = try FeedPuller(configuration: options)
    defer { puller.syncShutdown() }
    func pull(_ count: Int, from start: Int) {
      // Distinct query strings: a source given twice would be pulled once.
      let sources = (start..<start + count).map {
        PullSource(server.url($0 % 10 == 0 ? "/gone?\($0)" : "/feed?\($0)"))
      }
      let latch = RecordLatch()
      let ends = puller.pull(sources, into: latch)
      #expect(ends.count == count)
      #expect(ends.filter(\.ok).count == count - count / 10)
    }
    pull(2_000, from: 0)
    let descriptorsBefore = Self.openFileDescriptors()
    pull(8_000, from: 2_000)
    let descriptorsAfter = Self.openFileDescriptors()
    // Kept-alive connections (both ends live in this process) and other tests running at the
    // same time may hold a few dozen; a descriptor leaked per transfer would be 8,000.
    #expect(
      descriptorsAfter <= descriptorsBefore + 64,
      "descriptors \(descriptorsBefore) → \(descriptorsAfter)")
  }

  /// Resident memory is measured in a child, since other tests share this process. The CLI
  /// queues every source at once (its transfer, document and parse queue wait in the worker's
  /// queue) and keeps only failed `end` records; a leaked curl handle or parser context (tens of
  /// KB each) per transfer would add hundreds of MB.
  @Test func tenThousandTransfersLeakNoMemory() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok(rssFeed(items: 2))])
    func peak(_ count: Int) throws -> Int {
      let list = FileManager.default.temporaryDirectory
        .appendingPathComponent("feedpull-many-\(UUID().uuidString).txt")
      defer { try? FileManager.default.removeItem(at: list) }
      try (0..<count).map { server.url("/feed?\($0)") }.joined(separator: "\n")
        .write(to: list, atomically: true, encoding: .utf8)
      let result = try MeasuredProcess.run(
        ["-f", "jsonl", "-j", "16", "--per-host", "16", "--host-delay", "0", "-i", list.path],
        deadline: 300)
      #expect(result.status == 0)
      return result.peakMemoryBytes
    }
    let few = try peak(2_000)
    let many = try peak(10_000)
    #expect((many - few) / 8_000 < 2_048, "peak \(few >> 20) MiB → \(many >> 20) MiB")
  }
}
