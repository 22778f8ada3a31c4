import Foundation
import TestSupport
import Testing

/// A JSON Feed through the real binary: memory stays flat however many items it has.
@Suite struct JSONFeedResourceTests {
  static func writeFeed(items: Int) throws -> URL {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-json-\(UUID().uuidString).json")
    let body = String(repeating: "<p>Some text of an item, long enough to matter.</p>", count: 40)
    var text = #"{"version":"https://jsonfeed.org/version/1.1","title":"Big","items":["#
    text.reserveCapacity(items * (body.utf8.count + 200))
    for index in 0..<items {
      if index > 0 { text += "," }
      text += #"{"id":"\#(index)","url":"https://example.com/\#(index)","title":"Item \#(index)","#
      text += #""content_html":"\#(body)","tags":["a","b"]}"#
    }
    text += "]}"
    try text.write(to: file, atomically: false, encoding: .utf8)
    return file
  }

  @Test func peakMemoryDoesNotGrowWithTheFeed() throws {
    let small = try Self.writeFeed(items: 500)
    let large = try Self.writeFeed(items: 10_000)
    defer {
      try? FileManager.default.removeItem(at: small)
      try? FileManager.default.removeItem(at: large)
    }
    let few = try MeasuredProcess.run(["-f", "jsonl", small.path])
    let many = try MeasuredProcess.run(["-f", "jsonl", large.path])
    #expect(few.status == 0 && many.status == 0)
    #expect(many.stdout.components(separatedBy: "\"type\":\"item\"").count - 1 == 10_000)
    #expect(
      many.peakMemoryBytes - few.peakMemoryBytes < 8 << 20,
      "peak \(few.peakMemoryBytes >> 20) MiB for 500 items, \(many.peakMemoryBytes >> 20) MiB for 10,000"
    )
  }
}
