/// How an XML document ended, decided in one place from what the parse saw: a value with a
/// case for each ending, instead of flags recombined where the result is made.
///
/// `StreamingFeedParser.finish` gathers the facts (`Facts`) and reports `failure`; the decision
/// itself is a pure function of them, tested as a table (`DocumentEndingTests`).
enum DocumentEnding: Equatable {
  /// Read to its end as a feed (possibly with recovered errors: see `wellformed`).
  case complete
  /// No bytes, or only white space and byte order marks.
  case empty
  /// The parse was stopped on purpose (a limit, a fatal error, a stray DOCTYPE), with why.
  case stopped(FeedParseFailure)
  /// Well-formed enough, but the root element is not RSS, RDF or Atom.
  case otherVocabulary
  /// The body is JSON that did not come through the JSON Feed reader.
  case json
  /// No root element was ever read: plain text, binary, or markup libxml2 could not start on.
  case notXML(firstError: String?)
  /// Stray end tags closed the root before the document's end; what followed was never read.
  case rootClosedEarly(firstError: String?)
  /// The document ended before its root element closed.
  case cutOff(firstError: String?)

  /// What the parse saw, as the builder and the parser recorded it.
  struct Facts: Equatable {
    /// True when there was no byte but white space and byte order marks.
    var isEmpty: Bool
    /// The first byte that is not white space or a BOM, if any.
    var firstSignificantByte: UInt8?
    /// Whether the root element was read, and what it was.
    var root: FeedDocumentBuilder.RootState
    var rootClosed: Bool
    var rootClosedEarly: Bool
    /// Why the parse was stopped, if it was.
    var stopFailure: FeedParseFailure?
    /// True when the stop came from a fatal XML error before any root element.
    var stoppedAtFatalError: Bool
    /// libxml2's first error message, for the reader of the failure.
    var firstError: String?
  }

  /// The decision. A stop before any root that a fatal error caused is reported as the
  /// document not being XML at all, with that error: the stop itself says less.
  init(_ facts: Facts) {
    if facts.isEmpty {
      self = .empty
      return
    }
    if let failure = facts.stopFailure, facts.root != .none || !facts.stoppedAtFatalError {
      self = .stopped(failure)
      return
    }
    switch facts.root {
    case .notAFeed: self = .otherVocabulary
    case .none:
      let byte = facts.firstSignificantByte
      self =
        byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
        ? .json : .notXML(firstError: facts.firstError)
    case .feed:
      if facts.rootClosed && !facts.rootClosedEarly {
        self = .complete
      } else if facts.rootClosedEarly {
        self = .rootClosedEarly(firstError: facts.firstError)
      } else {
        self = .cutOff(firstError: facts.firstError)
      }
    }
  }

  /// The failure to report; nil for `complete`.
  var failure: FeedParseFailure? {
    func detail(_ error: String?) -> String { error.map { ": \($0)" } ?? "" }
    switch self {
    case .complete: return nil
    case .empty: return FeedParseFailure(kind: .xml, message: "the document is empty")
    case .stopped(let failure): return failure
    case .otherVocabulary:
      return FeedParseFailure(kind: .notAFeed, message: "the root element is not RSS, RDF or Atom")
    case .json: return FeedParseFailure(kind: .notAFeed, message: "the document is JSON, not XML")
    case .notXML(let error):
      return FeedParseFailure(kind: .xml, message: "not an XML document" + detail(error))
    case .rootClosedEarly(let error):
      return FeedParseFailure(
        kind: .xml,
        message: "stray end tags closed the root element before the document's end"
          + detail(error))
    case .cutOff(let error):
      return FeedParseFailure(
        kind: .xml, message: "the document ended before its root element closed" + detail(error))
    }
  }
}
