import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// HTML pages: the format decision, and the feeds a page's head links.
@Suite struct HTMLHeadTests {
  @Test func linksComeInPageOrderWithTypesAndTitles() throws {
    let outcome = parseDocument(
      try fixture("html/all-types.html"), documentURL: "https://example.org/blog/")
    #expect(outcome.result.failure?.kind == .notAFeed)
    #expect(
      outcome.linkedFeeds == [
        LinkedFeed(
          url: "https://example.org/json/jsonfeed10-author.json", type: "application/feed+json",
          title: "JSON Feed"),
        LinkedFeed(
          url: "https://example.org/rss/rss20-full.xml", type: "application/rss+xml",
          title: "RSS 2.0"),
        LinkedFeed(
          url: "https://example.org/atom/atom10-full.xml", type: "application/atom+xml",
          title: "Atom"),
        LinkedFeed(
          url: "https://example.org/rdf/rss10.xml", type: "application/rdf+xml", title: "RSS 1.0"),
      ])
  }

  @Test func baseHrefAppliesToLinksBeforeIt() throws {
    let outcome = parseDocument(
      try fixture("html/base-href.html"), documentURL: "https://example.org/a/page")
    #expect(outcome.linkedFeeds?.map(\.url) == ["https://example.org/rdf/rss090.xml"])
  }

  @Test func aShiftJISPageGivesItsTitlesAsText() throws {
    let outcome = parseDocument(try fixture("html/shift_jis.html"))
    #expect(outcome.result.encoding == "shift_jis")
    #expect(outcome.linkedFeeds?.first?.title == "日本語のフィード①")
  }

  @Test func theHTTPCharsetWinsOverTheMetaTag() throws {
    let page = Array(
      "<!doctype html><meta charset=shift_jis><link rel=alternate type=application/rss+xml href=f title=\"été\">"
        .utf8)
    let outcome = parseDocument(page, charset: "utf-8")
    #expect(outcome.linkedFeeds?.first?.title == "été")
  }

  /// Found by the fuzzer: a charset no decoder knows freed libxml2's context twice.
  @Test func anUnknownMetaCharsetIsReadAsUTF8() {
    let page = Array(
      "<!doctype html><meta charset=utd><link rel=alternate type=application/rss+xml href=f title=\"été\">"
        .utf8)
    let outcome = parseDocument(page)
    #expect(outcome.linkedFeeds?.first?.title == "été")
    #expect(outcome.result.encoding == "utf-8")
  }

  /// libxml2's own converter gives up on a chunk at its first bad byte; ours replaces it.
  @Test func aBadByteInAShiftJISPageLosesNothingElse() throws {
    var page = Array("<!doctype html><meta charset=shift_jis><title>".utf8)
    page += [0xEC, 0x64, 0x65, 0x63]
    page += Array("</title><link rel=alternate type=application/rss+xml href=/f.xml title=\"x".utf8)
    page += [0xEC, 0x64] + Array("y\"></head>".utf8)
    let outcome = expectDocumentChunkInvariant(page, name: "bad Shift_JIS")
    #expect(outcome.result.encoding == "shift_jis")
    #expect(outcome.linkedFeeds?.map(\.url) == ["http://example.com/f.xml"])
    #expect(outcome.linkedFeeds?.first?.title?.contains("\u{FFFD}") == true)
  }

  @Test func anUnclosedHTML5PageEndsItsHeadAtTheImpliedBody() throws {
    let outcome = parseDocument(try fixture("html/html5-unclosed.html"))
    #expect(outcome.linkedFeeds?.map(\.title) == ["Unclosed RSS"])
  }

  /// The head reader stops once the head is over: the rest of a page is not needed.
  @Test func readingStopsWhenTheHeadIsOver() {
    let parser = FeedDocumentParser(documentURL: "https://example.org/") { _ in }
    parser.parse(
      Array(
        "<!DOCTYPE html><html><head><link rel=alternate type=application/atom+xml href=/a></head>"
          .utf8))
    parser.parse(Array(repeating: UInt8(ascii: " "), count: 2048))
    #expect(parser.isStopped)
    #expect(parser.finish().failure?.kind == .notAFeed)
    #expect(parser.linkedFeeds?.map(\.url) == ["https://example.org/a"])
  }

  /// A page whose head holds `filler` bytes of inline script between two links, read in
  /// 16 KiB pieces as curl delivers them: where the reading stopped, and the feeds found.
  func readHead(filler: Int) -> (stoppedAt: Int?, feeds: [String]?) {
    var page = Array(
      "<!DOCTYPE html><html><head><link rel=alternate type=application/rss+xml href=/first.xml><script>"
        .utf8)
    page += Array(repeating: UInt8(ascii: "x"), count: filler)
    page += Array(
      "</script><link rel=alternate type=application/rss+xml href=/late.xml></head><body>".utf8)
    page += Array(repeating: UInt8(ascii: "y"), count: 1 << 20)
    var stoppedAt: Int?
    let parser = FeedDocumentParser(documentURL: "https://example.org/") { _ in }
    for start in stride(from: 0, to: page.count, by: 16384) {
      parser.parse(Array(page[start..<min(page.count, start + 16384)]))
      if parser.isStopped {
        stoppedAt = start + 16384
        break
      }
    }
    _ = parser.finish()
    return (stoppedAt, parser.linkedFeeds?.map(\.url))
  }

  @Test func aLinkAfterOneMegabyteOfHeadIsFound() {
    let (stoppedAt, feeds) = readHead(filler: 1_000_000)
    #expect(feeds == ["https://example.org/first.xml", "https://example.org/late.xml"])
    #expect(stoppedAt != nil && stoppedAt! < 1_000_000 + 32768, "the body is not read")
  }

  /// Past the bound the reading stops, with the feeds found before it.
  @Test func aLinkPastTheBoundIsNotReached() {
    let (stoppedAt, feeds) = readHead(filler: HTMLHeadReader.maxHeadBytes)
    #expect(feeds == ["https://example.org/first.xml"])
    #expect(stoppedAt != nil && stoppedAt! <= HTMLHeadReader.maxHeadBytes + 16384)
  }

  /// Found by the fuzzer: a comment that closes past the window decided differently whole.
  @Test func onlyTheSniffWindowDecides() {
    let page = "<!-- " + String(repeating: "x", count: 2000) + " --><!DOCTYPE html><html>"
    let bytes = Array(page.utf8)
    let whole = DocumentFormat.decide(bytes, contentType: nil, complete: false)
    let windowed = DocumentFormat.decide(
      Array(bytes.prefix(DocumentFormat.sniffWindow)), contentType: nil, complete: false)
    #expect(whole == windowed)
    #expect(whole == .xml)
  }

  @Test(
    arguments: [
      ("<!DOCTYPE html><html>", nil, DocumentFormat.html),
      ("\u{FEFF}  <html lang=en>", nil, .html),
      ("<?xml version=\"1.0\"?>\n<!-- c -->\n<!DOCTYPE html>", nil, .html),
      ("<?xml version=\"1.0\"?><rss version=\"2.0\">", "text/html", .xml),
      (
        "<?xml version=\"1.0\"?><!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\" \"x\">\n<!-- c -->\n<rss>",
        nil, .xml
      ),
      ("<!DOCTYPE html>\n<!-- c -->\n<head>", nil, .html),
      ("<rss version=\"2.0\">", "text/html; charset=utf-8", .xml),
      ("<head><title>x</title>", "text/html", .html),
      ("  {\"version\": 1}", nil, .json),
      ("<feed xmlns=\"http://www.w3.org/2005/Atom\">", "application/json", .xml),
      ("<htmlx>", nil, .xml),
      // A feed that carries its site's XHTML doctype is still a feed (feedparser's
      // illformed/always_strip_doctype); a page without `<html>` is still a page.
      (
        "<?xml version=\"1.0\"?><!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\" \"x\">\n<rss>\n  <channel>",
        nil, .xml
      ),
      ("<!doctype html>\n<!-- c -->\n<head><title>t</title>", nil, .html),
      ("plain text", nil, .xml),
      // UTF-16 and UTF-32 without a byte order mark: the second byte decides, so a `{` alone
      // must wait for it (found by the fuzzer: in chunks of one byte it made a JSON Feed).
      ("{\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}", nil, .xml),
      ("{\u{0}\"\u{0}", nil, .xml),
      // Where the bytes say nothing clear, the media type decides: read up to `;`, without
      // white space, in any case.
      ("x", "Text/HTML ; charset=utf-8", .html),
      ("x", " application/feed+json", .json),
      ("x", "APPLICATION/JSON;charset=utf-8", .json),
      ("x", "application/json-seq", .xml),
      ("x", "application/vnd.example.very-long-type+json", .xml),
      ("x", "text/html-ish", .xml),
      ("x", "", .xml),
      ("<!-- c --> <head>", "text/html", .html),
      ("<!-- an unclosed comment", "text/html", .html),
      ("<?xml", "application/json", .json),
    ] as [(String, String?, DocumentFormat)])
  func formatDecision(_ text: String, _ contentType: String?, _ expected: DocumentFormat) {
    #expect(
      DocumentFormat.decide(Array(text.utf8), contentType: contentType, complete: true) == expected)
    // The same decision when the bytes come one at a time.
    let bytes = Array(text.utf8)
    var decided: DocumentFormat?
    for end in 1...bytes.count where decided == nil {
      decided = DocumentFormat.decide(
        Array(bytes[..<end]), contentType: contentType, complete: false)
    }
    #expect(
      (decided ?? DocumentFormat.decide(bytes, contentType: contentType, complete: true))
        == expected)
  }
}
