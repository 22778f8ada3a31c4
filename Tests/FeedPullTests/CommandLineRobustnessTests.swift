import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What the command does when the world around it fails: stdout that cannot be written, Ctrl-C
/// and SIGTERM in the middle of a pull, a process out of file descriptors, a big local file.
@Suite struct CommandLineRobustnessTests {
  @Test func aFullDiskIsAnErrorNotSilence() throws {
    let process = Process()
    process.executableURL = FeedpullProcess.binary
    process.arguments = ["-f", "jsonl", RepositoryPaths.feeds.path + "/rss20.xml"]
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let stderr = Pipe()
    process.standardError = stderr
    try process.run()
    let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(message.contains("cannot write to standard output"), "\(message)")
  }

  @Test func aClosedPipeIsAnErrorNotSilence() throws {
    let process = Process()
    process.executableURL = FeedpullProcess.binary
    process.arguments = ["-f", "jsonl", RepositoryPaths.feeds.path + "/rss20.xml"]
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    // The reader is gone before the first byte: the first write fails with EPIPE.
    try stdout.fileHandleForReading.close()
    try process.run()
    try stdout.fileHandleForWriting.close()
    let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(message.contains("Broken pipe"), "\(message)")
  }

  /// Ctrl-C while one source stalls and another has finished: the stalled one (and the one still
  /// queued behind it) end `cancelled`, the finished one's records stay whole, exit 130.
  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func aSignalEndsEverySourceWithItsEndRecord(_ signal: Int32, _ expectedStatus: Int32) throws {
    let server = try LoopbackHTTPServer(routes: [
      "/stall": .silent, "/feed": .ok(rssFeed(items: 2)),
    ])
    let feed = server.url("/feed")
    let stalled = server.url("/stall")
    let queued = server.url("/stall?queued")
    let running = try RunningFeedpull([
      "-f", "jsonl", "-j", "2", "--per-host", "2", "--host-delay", "0", feed, stalled, queued,
    ])
    #expect(running.waitForOutput("\"type\":\"end\"", timeout: 30))
    #expect(server.requestsReceived.wait(for: 2, timeout: 30))
    running.send(signal)
    let result = running.finish(deadline: 30)
    #expect(result.status == expectedStatus, "\(result.stderr)")
    let ends = result.records.filter { $0["type"] as? String == "end" }
    #expect(ends.count == 3)
    let bySource = Dictionary(ends.map { ($0["source"] as? String ?? "", $0) }) { first, _ in first
    }
    #expect(bySource[feed]?["ok"] as? Bool == true)
    #expect(bySource[feed]?["items"] as? Int == 2)
    for source in [stalled, queued] {
      let error = bySource[source]?["error"] as? [String: Any]
      #expect(
        error?["kind"] as? String == "cancelled", "\(source): \(error ?? [:]) \(result.stderr)")
    }
  }

  /// Out of file descriptors: the puller cannot start, says so, and the process exits 1 rather
  /// than dying inside CoreFoundation or libdispatch.
  @Test func outOfFileDescriptorsIsAnErrorNotACrash() throws {
    let shell = URL(fileURLWithPath: "/bin/sh")
    let script = "ulimit -n 16 && exec \"$0\" -f jsonl \"$1\""
    let result = try FeedpullProcess.run(
      executable: shell,
      ["-c", script, FeedpullProcess.binary.path, RepositoryPaths.feeds.path + "/rss20.xml"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("cannot start"), "\(result.stderr)")
  }

  /// The network's 64 MiB default does not apply to a local file: it is the user's own.
  @Test func aLocalFileLargerThanTheNetworkLimitIsReadWhole() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-big-\(UUID().uuidString).xml")
    defer { try? FileManager.default.removeItem(at: file) }
    let item =
      "<item><title>i</title><description><![CDATA[" + String(repeating: "x", count: 8000)
      + "]]></description></item>\n"
    let count = (65 << 20) / item.utf8.count + 1
    #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
    let handle = try FileHandle(forWritingTo: file)
    handle.write(Data("<rss version=\"2.0\"><channel><title>t</title>\n".utf8))
    let block = Data(String(repeating: item, count: 100).utf8)
    for _ in 0..<(count / 100 + 1) { handle.write(block) }
    handle.write(Data("</channel></rss>\n".utf8))
    try handle.close()
    let result = try FeedpullProcess.run(["-f", "jsonl", "-q", file.path], deadline: 120)
    #expect(result.status == 0)
    let end = result.records.last
    #expect(end?["ok"] as? Bool == true)
    #expect((end?["bytes"] as? Int ?? 0) > 64 << 20)
  }
}
