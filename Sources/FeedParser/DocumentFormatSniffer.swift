import FeedPullSupport

/// Which parser a document needs: the XML feed parser, the JSON Feed reader, or the HTML head
/// reader (feed discovery). The first bytes decide, past a byte order mark, white space, an XML
/// declaration and comments: `{` is JSON; `<!doctype html` or `<html` is a page (XHTML too,
/// whatever its declaration). Where the bytes say nothing clear, the `Content-Type` decides:
/// `text/html` a page, `application/json` or `application/feed+json` JSON. Feeds served as
/// `text/html` are common (misconfigured servers), so the type never overrules `<rss`/`<feed`.
enum DocumentFormat: Equatable {
  case xml, json, html

  /// Bytes examined at most; past them, what was seen decides.
  static let sniffWindow = 1024

  /// Nil when `bytes` (the document's first bytes) cannot decide yet and more may come.
  static func decide(_ bytes: [UInt8], contentType: String?, complete: Bool) -> DocumentFormat? {
    let type = mediaType(contentType)
    let forced = complete || bytes.count >= sniffWindow
    // Only the window counts, however many bytes the first chunk brought: a comment that closes
    // past it must not decide one way whole and another way in small chunks (found by the
    // fuzzer).
    let bytes = Array(bytes.prefix(sniffWindow))
    // A byte order mark may still be arriving, and a zero second byte (UTF-16 or UTF-32
    // without one) decides before the first byte does: `{` alone is not yet a JSON Feed.
    if !forced, bytes.count < 3, [0xEF, 0xBB, 0xBF].starts(with: bytes) { return nil }
    if !forced, bytes.count < 2 { return nil }
    var index = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    // UTF-16 and UTF-32 documents are XML's to decode.
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
      || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0))
    {
      return .xml
    }
    // An HTML doctype makes a page, unless a feed's root follows it: feedparser's corpus has an
    // RSS document behind an XHTML doctype (`always_strip_doctype`), so the root decides.
    var sawHTMLDoctype = false
    var undecided: DocumentFormat? {
      forced ? (sawHTMLDoctype ? .html : byType(type) ?? .xml) : nil
    }
    while true {
      while index < bytes.count, isSpace(bytes[index]) { index += 1 }
      guard index < bytes.count else { return undecided }
      let byte = bytes[index]
      if byte == UInt8(ascii: "{") { return .json }
      guard byte == UInt8(ascii: "<") else { return byType(type) ?? .xml }
      let rest = bytes[index...]
      // Skip the XML declaration, processing instructions and comments.
      if let skip = skipped(
        rest, opening: Self.instructionOpening, closing: Self.instructionClosing)
        ?? skipped(rest, opening: Self.commentOpening, closing: Self.commentClosing)
      {
        guard let end = skip else { return undecided }
        index = end
        continue
      }
      // Decide on 15 bytes from the `<` (enough for `<!doctype html `), or on what is there at
      // the end: deciding on fewer would make the outcome depend on the chunking.
      if !forced, rest.count < 15 { return nil }
      let head = lowered(rest.prefix(15))
      if head.starts(with: Array("<!doctype html".utf8)) && head.count >= 15 {
        let after = head[head.startIndex + 14]
        guard isSpace(after) || after == UInt8(ascii: ">") else { return .xml }
        sawHTMLDoctype = true
        guard let close = rest.firstIndex(of: UInt8(ascii: ">")) else { return undecided }
        index = close + 1
        continue
      }
      if head.starts(with: Array("<html".utf8)) && head.count >= 6 {
        let after = head[head.startIndex + 5]
        if isSpace(after) || after == UInt8(ascii: ">") { return .html }
      }
      if looksLikeFeedRoot(head) { return .xml }
      if sawHTMLDoctype || type == .html { return .html }
      return .xml
    }
  }

  private static let instructionOpening = Array("<?".utf8)
  private static let instructionClosing = Array("?>".utf8)
  private static let commentOpening = Array("<!--".utf8)
  private static let commentClosing = Array("-->".utf8)

  /// nil: `bytes` does not start with `open`; .some(nil): it does but `close` has not come
  /// yet; .some(index): the index after `close`.
  private static func skipped(
    _ bytes: ArraySlice<UInt8>, opening open: [UInt8], closing close: [UInt8]
  ) -> Int?? {
    guard bytes.count >= open.count else {
      return !bytes.isEmpty && open.starts(with: bytes) ? .some(nil) : nil
    }
    guard bytes.starts(with: open) else { return nil }
    let rest = bytes[(bytes.startIndex + open.count)...]
    return .some(ByteSearch.firstStart(of: close, in: rest).map { $0 + close.count })
  }

  private static func looksLikeFeedRoot(_ head: ArraySlice<UInt8>) -> Bool {
    ["<rss", "<feed", "<rdf:", "<!doctype rss", "<channel"].contains {
      head.starts(with: Array($0.utf8))
    }
  }

  private static func byType(_ type: DocumentFormat?) -> DocumentFormat? { type }

  /// The format a `Content-Type` names, read from its bytes up to `;`, without white space,
  /// in any case: no `String` made for it.
  private static func mediaType(_ contentType: String?) -> DocumentFormat? {
    guard let contentType else { return nil }
    var type: [UInt8] = []
    type.reserveCapacity(24)
    for byte in contentType.utf8 {
      if byte == UInt8(ascii: ";") { break }
      if isSpace(byte) { continue }
      // Longer than every type named here.
      if type.count == 24 { return nil }
      type.append(byte)
    }
    if ASCIIWord.equalsIgnoringCase(type, "text/html") { return .html }
    if ASCIIWord.equalsIgnoringCase(type, "application/json")
      || ASCIIWord.equalsIgnoringCase(type, "application/feed+json")
    {
      return .json
    }
    return nil
  }

  private static func lowered(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }[...]
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
