import Foundation
import TestSupport
import Testing

/// Where records go, end to end: `-o FILE` appends, `--records` chooses the kinds.
@Suite(.serialized) struct RecordOutputTests {
  @Test func recordsItemWritesItemsOnly() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let feed = try scratch.file("a.xml", CLIScratch.feed("A", items: ["1", "2"]))
    let result = try FeedpullProcess.run(["-f", "jsonl", "--records", "item", feed])
    #expect(result.status == 0)
    #expect(result.records.map { $0["type"] as? String } == ["item", "item"])
    let ends = try FeedpullProcess.run(["-f", "jsonl", "--records=end,feed", feed])
    #expect(ends.records.map { $0["type"] as? String } == ["feed", "end"])
  }

  @Test func outputAppendsToTheFileAndNothingGoesToStandardOutput() throws {
    let scratch = try CLIScratch()
    defer { scratch.remove() }
    let feed = try scratch.file("a.xml", CLIScratch.feed("A", items: ["1", "2"]))
    let output = try scratch.file("items.jsonl", "{\"type\":\"earlier\"}\n")
    for _ in 0..<2 {
      let result = try FeedpullProcess.run(["-o", output, "--records", "item", feed])
      #expect(result.status == 0)
      #expect(result.stdout.isEmpty)
    }
    let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines.first == "{\"type\":\"earlier\"}")
    // Not a terminal: JSON Lines unless -f says otherwise.
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("{\"type\":\"item\"") })
  }

  @Test func anOutputFileThatCannotBeOpenedIsAUsageError() throws {
    let result = try FeedpullProcess.run(["-o", "/nonexistent/dir/items.jsonl", "x.xml"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("No such file or directory"))
  }
}
