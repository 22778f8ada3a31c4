import Testing

@testable import FeedPull

@Suite struct SourceOriginTests {
  @Test(arguments: [
    ("-", SourceOrigin.standardInput),
    ("http://example.com/feed", .http(url: "http://example.com/feed")),
    ("HTTPS://example.com/feed", .http(url: "HTTPS://example.com/feed")),
    ("feeds/rss20.xml", .file(path: "feeds/rss20.xml")),
    ("notes:2024.xml", .file(path: "notes:2024.xml")),
    ("file:///tmp/a%20b.xml", .file(path: "/tmp/a b.xml")),
    ("file://localhost/tmp/x.xml", .file(path: "/tmp/x.xml")),
    ("file://otherhost/tmp/x.xml", .unsupported(scheme: "file")),
    ("ftp://example.com/feed", .unsupported(scheme: "ftp")),
    ("gopher://example.com/", .unsupported(scheme: "gopher")),
  ])
  func classifies(_ source: String, _ expected: SourceOrigin) {
    #expect(SourceOrigin(source) == expected)
  }

  @Test func charsetComesFromContentType() {
    #expect(ContentType.charset(of: "application/rss+xml; charset=\"Shift_JIS\"") == "Shift_JIS")
    #expect(ContentType.charset(of: "text/xml;Charset=euc-jp") == "euc-jp")
    #expect(ContentType.charset(of: "text/xml") == nil)
    #expect(ContentType.charset(of: nil) == nil)
  }
}
