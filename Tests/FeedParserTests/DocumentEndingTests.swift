import Testing

@testable import FeedParser

/// How a document ended, as a table of what the parse saw: no parser, no libxml2.
@Suite struct DocumentEndingTests {
  static func facts(
    empty: Bool = false, first: Character = "<", root: FeedDocumentBuilder.RootState = .feed,
    closed: Bool = true, early: Bool = false, stop: FeedParseFailure? = nil,
    fatal: Bool = false, error: String? = nil
  ) -> DocumentEnding.Facts {
    DocumentEnding.Facts(
      isEmpty: empty, firstSignificantByte: first.asciiValue, root: root, rootClosed: closed,
      rootClosedEarly: early, stopFailure: stop, stoppedAtFatalError: fatal, firstError: error)
  }

  static let limit = FeedParseFailure(kind: .xml, message: "nesting deeper than 512")

  @Test(arguments: [
    (facts(), DocumentEnding.complete),
    (facts(empty: true), .empty),
    (facts(empty: true, stop: limit), .empty),
    (facts(stop: limit), .stopped(limit)),
    // A stop that a fatal error caused before any root: the document is not XML, and the
    // error says why.
    (
      facts(root: .none, stop: limit, fatal: true, error: "StartTag"),
      .notXML(firstError: "StartTag")
    ),
    (facts(root: .none, stop: limit, fatal: false), .stopped(limit)),
    (facts(root: .notAFeed), .otherVocabulary),
    (facts(first: "{", root: .none), .json),
    (facts(first: "[", root: .none), .json),
    (facts(first: "x", root: .none, error: "junk"), .notXML(firstError: "junk")),
    (facts(early: true, error: "mismatch"), .rootClosedEarly(firstError: "mismatch")),
    (facts(closed: false), .cutOff(firstError: nil)),
  ])
  func endings(_ facts: DocumentEnding.Facts, _ expected: DocumentEnding) {
    #expect(DocumentEnding(facts) == expected)
  }

  @Test func onlyACompleteDocumentHasNoFailure() {
    #expect(DocumentEnding.complete.failure == nil)
    #expect(DocumentEnding.json.failure?.kind == .notAFeed)
    #expect(DocumentEnding.otherVocabulary.failure?.kind == .notAFeed)
    #expect(DocumentEnding.cutOff(firstError: "x").failure?.kind == .xml)
    #expect(
      DocumentEnding.cutOff(firstError: "x").failure?.message
        == "the document ended before its root element closed: x")
  }
}
