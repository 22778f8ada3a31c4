import Foundation
import TestSupport
import Testing

@testable import FeedPull

/// Many transfers through one worker leave nothing behind: no file descriptors, no memory.
@Suite struct ResourceTests {
  static func openFileDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
  }

  /// This process's descriptors that are TCP connections to or from `port` (both ends of a
  /// loopback connection live here): what a transfer that leaked its connection leaves behind,
  /// whatever other tests of the process open meanwhile.
  static func connections(onPort port: UInt16) -> Int {
    var inodes = Set<String>()
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
      guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
      for line in text.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        guard fields.count > 9 else { continue }
        let ports = [fields[1], fields[2]].compactMap { $0.split(separator: ":").last }
          .compactMap { UInt16($0, radix: 16) }
        if ports.contains(port) { inodes.insert(String(fields[9])) }
      }
    }
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return fds.filter { fd in
      guard
        let target = try? FileManager.default.destinationOfSymbolicLink(
          atPath: "/proc/self/fd/\(fd)"),
        target.hasPrefix("socket:[")
      else { return false }
      return inodes.contains(String(target.dropFirst(8).dropLast()))
    }.count
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
    // The connections to this test's server: at most the kept-alive ones, both ends (16 each).
    let connections = Self.connections(onPort: server.port)
    #expect(connections <= 64, "\(connections) connections to the test server still open")
    // Any other descriptor leaked per transfer would be 8,000 more. The bound leaves room for
    // the tests that run beside this one in the process (a CI run at load 9 saw 94 more).
    #expect(
      descriptorsAfter <= descriptorsBefore + 1_000,
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
