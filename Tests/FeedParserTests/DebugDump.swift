import Foundation
import Testing

@testable import FeedParser

/// `FEEDPARSER_DUMP=/path/file.xml swift test --filter dumpDocument` prints what the parser
/// makes of a file, with its first XML error: a tool for investigating a feed, not a check.
@Test func dumpDocument() throws {
  guard let path = ProcessInfo.processInfo.environment["FEEDPARSER_DUMP"] else { return }
  let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  var events: [FeedEvent] = []
  let parser = StreamingFeedParser(documentURL: "file://" + path) { events.append($0) }
  parser.parse(bytes)
  let result = parser.finish()
  for event in events { print(event) }
  print(result)
  print("first error:", parser.firstXMLError ?? "none")
}
