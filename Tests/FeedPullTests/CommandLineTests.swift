import FeedPullSupport
import Foundation
import TestSupport
import Testing

/// The real `feedpull` binary against docs/format.md: exit statuses, records, usage errors.
@Suite struct CommandLineTests {
  static let feed = """
    <?xml version="1.0" encoding="utf-8"?>
    <rss version="2.0"><channel><title>Loopback</title><link>http://example.com/</link>
    <item><title>First</title><link>http://example.com/1</link><guid>1</guid></item>
    <item><title>Second</title><link>http://example.com/2</link><guid>2</guid></item>
    </channel></rss>
    """

  /// A file in a fresh temporary folder, removed with the folder by the caller.
  static func temporaryFile(_ name: String, _ text: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  @Test(arguments: [
    ["--bogus", "x.xml"], ["-j", "0", "x.xml"], ["--format", "xml", "x.xml"],
    ["--max-bytes", "12Q", "x.xml"], ["--timeout", "-1", "x.xml"], [], ["-q"],
    ["-i", "/nonexistent/list.txt"], ["--jobs"],
  ])
  func usageErrorsExitTwoWithNothingOnStdout(_ arguments: [String]) throws {
    let result = try FeedpullProcess.run(arguments)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("feedpull:"))
  }

  @Test func versionAndHelp() throws {
    let version = try FeedpullProcess.run(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("feedpull "))
    let help = try FeedpullProcess.run(["-h"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("--max-redirects"))
  }

  @Test func pullsAFileAndExitsZero() throws {
    let file = try Self.temporaryFile("feed.xml", Self.feed)
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let result = try FeedpullProcess.run(["--format", "jsonl", file.path])
    #expect(result.status == 0)
    let records = result.records
    #expect(records.map { $0["type"] as? String } == ["feed", "item", "item", "end"])
    #expect(records.allSatisfy { $0["source"] as? String == file.path })
    #expect(records[1]["title"] as? String == "First")
    #expect(records[3]["ok"] as? Bool == true)
    #expect(records[3]["items"] as? Int == 2)
    #expect(records[3]["url"] as? String == "file://" + file.path)
  }

  @Test func standardInputGivesTheSameRecordsAsTheFile() throws {
    let file = try Self.temporaryFile("feed.xml", Self.feed)
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let fromFile = try FeedpullProcess.run(["-f", "jsonl", file.path])
    let fromStdin = try FeedpullProcess.run(["-f", "jsonl", "-"], input: Data(Self.feed.utf8))
    #expect(fromStdin.status == 0)
    func comparable(_ result: FeedpullProcess.Result) -> [String] {
      result.records.map { record in
        var record = record
        record["source"] = nil
        record["url"] = nil
        record["elapsed_ms"] = nil
        let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
        return String(decoding: data ?? Data(), as: UTF8.self)
      }
    }
    #expect(comparable(fromFile) == comparable(fromStdin))
    #expect(fromStdin.records.count == 4)
  }

  /// A feed arriving on a pipe: each item is written as soon as its bytes have come, while
  /// the rest has not (parsing a chunk ahead must not hold it back).
  @Test func standardInputItemsAreWrittenBeforeTheInputEnds() throws {
    let process = Process()
    process.executableURL = FeedpullProcess.binary
    process.arguments = ["--format", "jsonl", "-"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let watcher = OutputWatcher(output.fileHandleForReading)
    input.fileHandleForWriting.write(
      Data("<rss version='2.0'><channel><title>T</title><item><title>First</title></item>".utf8))
    #expect(watcher.firstItem.wait(timeout: 30))
    #expect(!watcher.text.contains("\"end\""))
    input.fileHandleForWriting.write(
      Data("<item><title>Second</title></item></channel></rss>".utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    watcher.finished.wait()
    #expect(process.terminationStatus == 0)
    #expect(watcher.text.components(separatedBy: "\"type\":\"item\"").count == 3)
  }

  @Test func failuresExitOneAndKeepTheOtherSources() throws {
    let file = try Self.temporaryFile("feed.xml", Self.feed)
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let result = try FeedpullProcess.run([
      "-f", "jsonl", file.path, "/nonexistent/feed.xml", "ftp://example.com/feed", file.path,
    ])
    #expect(result.status == 1)
    let ends = result.records.filter { $0["type"] as? String == "end" }
    #expect(ends.count == 3, "a source given twice is pulled once")
    let kinds = Dictionary(
      uniqueKeysWithValues: ends.map {
        ($0["source"] as? String ?? "", ($0["error"] as? [String: Any])?["kind"] as? String)
      })
    #expect(kinds["/nonexistent/feed.xml"] == "io")
    #expect(kinds["ftp://example.com/feed"] == "protocol")
    #expect(kinds[file.path] == .some(nil))
  }

  @Test func inputListAddsSources() throws {
    let file = try Self.temporaryFile("feed.xml", Self.feed)
    let folder = file.deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = folder.appendingPathComponent("list.txt")
    try "# subscriptions\n\(file.path)\n".write(to: list, atomically: true, encoding: .utf8)
    let result = try FeedpullProcess.run(["-f", "jsonl", "-i", list.path])
    #expect(result.status == 0)
    #expect(result.records.last?["items"] as? Int == 2)
  }

  @Test func maxBytesKeepsTheItemsWithinTheLimit() throws {
    let items = (0..<50).map { "<item><title>Item \($0)</title><guid>\($0)</guid></item>" }
    let text =
      "<rss version=\"2.0\"><channel><title>Big</title>" + items.joined()
      + "</channel></rss>"
    let file = try Self.temporaryFile("big.xml", text)
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let limit = text.utf8.count / 2
    let result = try FeedpullProcess.run(["-f", "jsonl", "--max-bytes", "\(limit)", file.path])
    #expect(result.status == 1)
    let end = try #require(result.records.last)
    #expect((end["error"] as? [String: Any])?["kind"] as? String == "too_large")
    let kept = result.records.filter { $0["type"] as? String == "item" }.count
    #expect(kept > 10 && kept < 50)
    #expect(end["items"] as? Int == kept)
    #expect(end["bytes"] as? Int == limit)
  }

  @Test func textFormatShowsTitleThenOneLinePerItem() throws {
    let file = try Self.temporaryFile("feed.xml", Self.feed)
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let result = try FeedpullProcess.run(["-f", "text", file.path])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.first?.hasPrefix("Loopback") == true)
    #expect(lines[1].contains("First") && lines[1].hasSuffix("http://example.com/1"))
  }
}

/// Reads a child's stdout as it comes, and signals the first item record.
private final class OutputWatcher: Sendable {
  let firstItem = EventLatch()
  let finished = DispatchSemaphore(value: 0)
  private let data = TSanVisibleMutex(Data())

  init(_ handle: FileHandle) {
    Thread {
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        self.data.withLock { $0.append(chunk) }
        if self.text.contains("\"type\":\"item\"") && self.firstItem.value == 0 {
          self.firstItem.signal()
        }
      }
      self.finished.signal()
    }.start()
  }

  var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
