import Foundation
import TestSupport
import Testing

extension NetworkPolicyEndToEnd {
  /// Limits that hold for every source (`--timeout` on a local device, a response header or a
  /// decompressed body past libcurl's buffers) and request headers that are refused before any
  /// request: end to end.
  @Suite struct LimitsAndHeadersCommandLineTests {
    static func kind(_ result: FeedpullProcess.Result) -> String? {
      let end = result.records.last { $0["type"] as? String == "end" }
      return (end?["error"] as? [String: Any])?["kind"] as? String
    }

    @Test(arguments: ["/dev/zero", "file:///dev/zero"])
    func devZeroEndsWithinItsTimeout(_ source: String) throws {
      let started = Date()
      let result = try FeedpullProcess.run(
        ["-f", "jsonl", "--timeout", "1.5", source], deadline: 30)
      #expect(Date().timeIntervalSince(started) < 15)
      #expect(result.status == 1)
      #expect(["timeout", "too_large"].contains(Self.kind(result)), "\(result.stdout)")
    }

    @Test func aPipeThatNeverEndsEndsWithTimeout() throws {
      // Standard input is a pipe the test never closes until feedpull has ended.
      let process = Process()
      process.executableURL = FeedpullProcess.binary
      process.arguments = ["-f", "jsonl", "--timeout", "1", "-"]
      let input = Pipe()
      let output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      let exited = EventLatch()
      process.terminationHandler = { _ in exited.signal() }
      try process.run()
      #expect(exited.wait(timeout: 20), "feedpull kept waiting for standard input")
      if process.isRunning { process.terminate() }
      try input.fileHandleForWriting.close()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      #expect(text.contains("\"kind\":\"timeout\""), "\(text)")
    }

    /// A zstd frame of 1 GiB: a raw block with the feed's start, then RLE blocks of 128 KiB of
    /// `a` (4 bytes each): 32 KB on the wire. libcurl decodes zstd; a paused transfer then held
    /// the decoded bytes until its 64 MB buffer ran out ("Out of memory").
    static func zstdBomb() -> [UInt8] {
      let prefix = Array("<rss version='2.0'><channel><title>".utf8)
      func block(last: Bool, type: UInt32, size: Int) -> [UInt8] {
        let value = (last ? 1 : 0) | (type << 1) | (UInt32(size) << 3)
        return [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF)]
      }
      // Magic, then a frame header: no content size, a 128 KiB window.
      var bytes: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x38]
      bytes += block(last: false, type: 0, size: prefix.count) + prefix
      let blocks = 8192
      for index in 0..<blocks {
        bytes += block(last: index == blocks - 1, type: 1, size: 128 * 1024) + [UInt8(ascii: "a")]
      }
      return bytes
    }

    @Test func aDecompressionBombAndAHugeHeaderEndTooLarge() throws {
      let server = try LoopbackScriptServer(routes: [
        "/bomb.xml": .init(
          headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "zstd")],
          body: Self.zstdBomb()),
        "/header.xml": .init(
          headers: [], body: Array(rssFeed(items: 1).utf8), headerBytes: 1 << 20),
      ])
      for path in ["/bomb.xml", "/header.xml"] {
        let result = try FeedpullProcess.run(["-f", "jsonl", server.url(path)], deadline: 60)
        #expect(result.status == 1)
        #expect(Self.kind(result) == "too_large", "\(path): \(result.stdout)")
      }
      // Read slowly (a consumer that pauses the transfer): the same bomb, the same answer.
      let slow = try FeedpullProcess.run(
        ["-f", "jsonl", "--max-bytes", "1G", server.url("/bomb.xml")], deadline: 120)
      #expect(Self.kind(slow) == "too_large", "\(slow.stdout)")
    }

    // A NUL byte cannot reach a program's arguments at all; the API tests cover it.
    @Test(arguments: ["x\r\nX-Evil: 1", "x\nX-Evil: 1", "x\rX-Evil: 1"])
    func aUserAgentWithALineBreakIsAUsageErrorAndNoRequest(_ agent: String) throws {
      let server = try LoopbackHTTPServer(routes: ["/feed.xml": .ok(rssFeed(items: 1))])
      let result = try FeedpullProcess.run(["-A", agent, server.url("/feed.xml")])
      #expect(result.status == 2)
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.contains("User-Agent"), "\(result.stderr)")
      #expect(server.connectionCount == 0)
    }
  }
}
