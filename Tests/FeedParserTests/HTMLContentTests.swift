import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// HTML fields through the whole parser, in each `--html` mode.
@Suite struct HTMLContentTests {
  static let fixtures: [String] = {
    let directory = RepositoryPaths.fixtures.appendingPathComponent("html-content")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".xml") || $0.hasSuffix(".json") }.sorted()
      .map { "html-content/" + $0 }
  }()

  /// Every mode gives the same records whole and trickled a byte at a time.
  @Test(arguments: fixtures, HTMLMode.allCases)
  func byteByByteIsTheSameAsWhole(_ path: String, _ mode: HTMLMode) throws {
    let bytes = try fixture(path)
    let whole = parseDocument(bytes, html: mode)
    #expect(whole.result.failure == nil)
    #expect(
      parseDocument(bytes, chunkSizes: Array(repeating: 1, count: bytes.count), html: mode) == whole
    )
  }

  @Test func modesChangeOnlyHTMLFields() throws {
    let bytes = try fixture("html-content/rss-hostile.xml")
    let raw = parseDocument(bytes, html: .raw)
    let safe = parseDocument(bytes, html: .safe)
    let text = parseDocument(bytes, html: .text)
    let first = try #require(raw.items.first)
    #expect(first.summary?.contains("javascript:") == true)
    #expect(safe.items.first?.summary?.contains("javascript:") == false)
    #expect(safe.items.first?.summaryType == "text/html")
    #expect(text.items.first?.summary == "Hello click")
    #expect(text.items.first?.summaryType == "text/plain")
    // Plain-text fields are the same in every mode.
    #expect(Set([raw, safe, text].map { $0.items.first?.title }) == ["Post one"])
    #expect(Set([raw, safe, text].map { $0.items.first?.link }).count == 1)
  }

  /// The base of relative URIs inside markup: the field's xml:base, else the document's URL.
  @Test func relativeURIsFollowEachElementsBase() throws {
    let outcome = parseDocument(
      try fixture("html-content/atom-xhtml-base.xml"), documentURL: "http://example.org/feed")
    let item = try #require(outcome.items.first)
    #expect(item.summary?.contains(#"href="http://example.org/blog/2026/one.html""#) == true)
    #expect(item.content?.contains(#"src="http://cdn.example.org/img/a.png""#) == true)
    let json = parseDocument(
      try fixture("html-content/jsonfeed-content.json"), documentURL: "https://example.net/f.json")
    #expect(json.items.first?.content?.contains(#"href="https://example.net/two""#) == true)
  }
}
