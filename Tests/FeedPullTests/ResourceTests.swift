import Foundation
import TestSupport
import Testing

@testable import FeedPull

/// Many transfers through one worker leave nothing behind: no file descriptors, no memory.
@Suite struct ResourceTests {
  static func openFileDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
  }

  static func residentBytes() -> Int {
    let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  @Test func tenThousandTransfersLeakNoDescriptorsAndNoMemory() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": .ok(rssFeed(items: 2)),
      "/gone": .ok("<html>gone</html>", status: 404),
    ])
    var options = PullOptions()
    options.jobs = 16
    let puller = FeedPuller(options: options)
    defer { puller.close() }
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
    let memoryBefore = Self.residentBytes()
    pull(8_000, from: 2_000)
    let descriptorsAfter = Self.openFileDescriptors()
    let memoryAfter = Self.residentBytes()
    // Kept-alive connections (both ends live in this process) may differ by a few.
    #expect(
      descriptorsAfter <= descriptorsBefore + 2 * options.jobs,
      "descriptors \(descriptorsBefore) → \(descriptorsAfter)")
    #expect(
      memoryAfter - memoryBefore < 16 << 20,
      "resident \(memoryBefore >> 20) → \(memoryAfter >> 20) MiB")
  }
}
