import Testing

@testable import FeedPull

@Suite struct SourceOriginTests {
  @Test(arguments: [
    ("-", SourceOrigin.standardInput),
    ("http://example.com/feed", .http(url: "http://example.com/feed")),
    ("HTTPS://example.com/feed", .http(url: "HTTPS://example.com/feed")),
    ("feeds/rss20.xml", .file(path: "feeds/rss20.xml")),
    ("notes:2024.xml", .unsupported(scheme: "notes")),
    ("file:///tmp/a%20b.xml", .file(path: "/tmp/a b.xml")),
    ("file://localhost/tmp/x.xml", .file(path: "/tmp/x.xml")),
    ("file://otherhost/tmp/x.xml", .unsupported(scheme: "file")),
    ("ftp://example.com/feed", .unsupported(scheme: "ftp")),
    ("gopher://example.com/", .unsupported(scheme: "gopher")),
  ])
  func classifies(_ source: String, _ expected: SourceOrigin) {
    #expect(SourceOrigin(source, fileExists: { _ in false }) == expected)
  }

  @Test(arguments: [
    ("feed://example.com/rss", SourceOrigin.http(url: "http://example.com/rss")),
    ("FEED://example.com/rss", .http(url: "http://example.com/rss")),
    ("feed:https://example.com/rss", .http(url: "https://example.com/rss")),
    ("feed:http://example.com/rss", .http(url: "http://example.com/rss")),
    ("feed:example", .unsupported(scheme: "feed")),
    ("data:application/rss+xml,<rss/>", .unsupported(scheme: "data")),
    ("mailto:someone@example.com", .unsupported(scheme: "mailto")),
    ("ftp:feed.xml", .unsupported(scheme: "ftp")),
  ])
  func schemesAreURLs(_ source: String, _ expected: SourceOrigin) {
    #expect(SourceOrigin(source, fileExists: { _ in true }) == expected)
  }

  @Test func wellKnownSchemesNeverTouchTheFileSystem() {
    var asked: [String] = []
    for source in ["data:text/plain,x", "ftp:x", "mailto:a@b", "http://x/", "feed:https://x/"] {
      _ = SourceOrigin(source) {
        asked.append($0)
        return true
      }
    }
    #expect(asked.isEmpty)
  }

  @Test func anUnknownSchemeIsAFileWhenOneExists() {
    #expect(
      SourceOrigin("notes:2024.xml", fileExists: { $0 == "notes:2024.xml" })
        == .file(path: "notes:2024.xml"))
    #expect(SourceOrigin("c:feed.xml", fileExists: { _ in false }) == .unsupported(scheme: "c"))
  }

  @Test func charsetComesFromContentType() {
    #expect(ContentType.charset(of: "application/rss+xml; charset=\"Shift_JIS\"") == "Shift_JIS")
    #expect(ContentType.charset(of: "text/xml;Charset=euc-jp") == "euc-jp")
    #expect(ContentType.charset(of: "text/xml") == nil)
    #expect(ContentType.charset(of: nil) == nil)
  }
}
