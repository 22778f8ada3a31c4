import Testing

@testable import FeedParser

/// The text hand-over reads libxml2's private parser state, so it is on only for the versions it
/// was verified on; this machine's libxml2 is one of them, so a drifted runtime library shows
/// up here before it shows up as slower parsing.
@Suite struct LibXMLVersionTests {
  @Test func theHandOverIsOnForTheVerifiedVersion() {
    #expect(LibXMLVersion.runtime == LibXMLVersion.built)
    #expect(LibXMLVersion.verified.contains(LibXMLVersion.runtime))
    #expect(LibXMLVersion.allowsTextHandOver)
    #expect(LibXMLVersion.note == nil)
  }

  @Test func aNewParserUsesTheVersionCheck() {
    let parser = StreamingFeedParser(documentURL: nil) { _ in }
    #expect(parser.handsTextToBuilder == LibXMLVersion.allowsTextHandOver)
  }
}
