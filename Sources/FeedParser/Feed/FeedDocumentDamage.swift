/// How the document's damage is judged: libxml2's errors (which stop the parse and which are
/// recovered from the same way for every chunking), and what follows the root element.
extension FeedDocumentBuilder {
  /// True when the root element closed only because libxml2's recovery matched a stray end tag
  /// to an open element, and more elements followed: they were never read. (One stray `</b>`
  /// in an item only shifts the nesting, so that the last `</rss>` is left over: harmless.)
  var rootClosedEarly: Bool {
    mismatchedEndTag && (contentAfterRoot || epilog?.sawStartTag == true)
  }

  var isReadingEpilog: Bool { epilog != nil }

  /// The bytes after the root element, already through the repair steps.
  func scanEpilog(_ bytes: UnsafeRawBufferPointer) {
    epilog?.scan(bytes)
  }

  func finishEpilog() {
    guard epilog != nil else { return }
    epilog!.finish()
    if epilog!.sawJunk {
      wellformed = false
      if firstError == nil { firstError = "content after the root element" }
    }
  }

  /// The root's end tag was just parsed: take over the rest of libxml2's buffer, then stop it
  /// (`EpilogScanner` says why).
  func beginEpilog() {
    guard parserHandle != nil else { return }
    var scanner = EpilogScanner()
    LibXMLPushParser.forEachUnparsedRegion(parserHandle) { scanner.scan($0) }
    epilog = scanner
    LibXMLPushParser.stop(parserHandle)
  }

  /// A fatal error stops the parse unless libxml2's recovery from it is known to be local and
  /// the same for every chunking. Past most fatal errors, what libxml2 2.9.14's push parser
  /// reads next depends on where the chunks were cut (the fuzzer found documents whose later
  /// elements differed whole and byte by byte), so the same feed would give different items
  /// depending on the network; stopping there keeps the items before the error and makes the
  /// outcome a property of the bytes. The contract calls such a document `xml`.
  func xmlError(message: String, kind error: XMLErrorKind, isFatal: Bool) {
    wellformed = false
    if isFatal && !rootClosed && !Self.recoversLocally(from: error) {
      if firstError == nil { firstError = message.trimmingSpaces() }
      stoppedAtFatalError = stopFailure == nil
      stop(
        .xml,
        documentEnded
          ? "the document ended before its root element closed: \(firstError!)" : firstError!)
      return
    }
    switch error {
    case .tagNameMismatch where !rootClosed: mismatchedEndTag = true
    case .documentEnd where rootClosed:
      // libxml2 raises this with its input at the left-over text, before halting.
      if let startsWithEndTag = LibXMLPushParser.unparsedInputStartsWithEndTag(parserHandle) {
        contentAfterRoot = !startsWithEndTag
      }
    default: break
    }
    // libxml2 2.9.14 reports a document cut off inside its root as "Extra content at the
    // end of the document" once it is told the end came: not a fault to show the reader of
    // "the document ended before its root element closed".
    if error == .documentEnd && documentEnded && !rootClosed { return }
    // Without the line: libxml2's push parser can notice the same damage a few lines apart
    // depending on the chunking (a fuzzer find), and the result must not depend on it.
    if firstError == nil { firstError = message.trimmingSpaces() }
  }

  /// Fatal errors whose recovery continues at a point fixed by the bytes alone:
  /// - a stray or mismatched end tag (HTML in an item's text: `a<br>b`) is matched to an open
  ///   element once the whole end tag is read;
  /// - the document ending inside an open element or before a root is raised only when the
  ///   last chunk is pushed, and `outcome()` reports it with a clearer message.
  static func recoversLocally(from error: XMLErrorKind) -> Bool {
    switch error {
    case .tagNameMismatch, .tagNotFinished, .documentEmpty, .documentEnd: true
    case .other: false
    }
  }
}
