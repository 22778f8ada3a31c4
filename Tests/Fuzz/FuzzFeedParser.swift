// libFuzzer target for the parser layer: the repair filter, the SAX state machine, dates and URL
// resolution, all reached through `StreamingFeedParser`. Built by `Tests/Fuzz/run` together with
// FeedParser's sources (one module), since `swift build -sanitize=fuzzer` does not link on Linux.
//
// Input: 8 bytes seed the chunking; the rest is the document. The same document is parsed whole
// and in seeded random chunks (prepared ahead on a queue of their own, as files are); the two
// must hand over the same events and the same result, so the fuzzer finds chunk-boundary and
// hand-over bugs as well as crashes. The whole document is also parsed
// with libxml2 reading every CDATA section itself, which must change nothing, and its UTF-8
// prefix goes through yajl with and without the strings read before it (`JSONStringBypass`).

#if canImport(Glibc)
  import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  guard size >= 8 else { return 0 }
  let input = UnsafeBufferPointer(start: data, count: size)
  var seed = input.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } | 1
  let document = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(input)[8...])

  let whole = parse(document) { _ in document.count }
  // The chunked parse prepares ahead on its own queue, as files do, which must change nothing.
  let chunked = parse(document, preparesAhead: true) { remaining in
    seed ^= seed << 13
    seed ^= seed >> 7
    seed ^= seed << 17
    return 1 + Int(seed % UInt64(min(remaining, 4096)))
  }
  // Records, wellformedness, encoding and the error's kind must not depend on the chunking.
  // The message may: it is libxml2's diagnostic, and which of two errors libxml2 meets first
  // depends on how far it could look ahead (found here: "Extra content at the end" whole,
  // "Space required after '<!ENTITY'" byte by byte, on one broken document).
  if whole.events != chunked.events || whole.result.wellformed != chunked.result.wellformed
    || whole.result.encoding != chunked.result.encoding
    || whole.result.failure?.kind != chunked.result.failure?.kind
  {
    // stderr, unbuffered: stdout's buffer would be lost in the crash.
    fputs("whole:   \(whole.result) \(whole.events)\n", stderr)
    fputs("chunked: \(chunked.result) \(chunked.events)\n", stderr)
    preconditionFailure("the parse depends on the chunking")
  }
  let libxmlReadsCDATA = parse(document, handsTextToBuilder: false) { _ in document.count }
  if whole.events != libxmlReadsCDATA.events || whole.result != libxmlReadsCDATA.result {
    fputs("handed over:  \(whole.result) \(whole.events)\n", stderr)
    fputs("libxml2 read: \(libxmlReadsCDATA.result) \(libxmlReadsCDATA.events)\n", stderr)
    preconditionFailure("handing CDATA content to the builder changed the parse")
  }

  // The same through the format decision, which sends `{` to the JSON Feed reader and pages to
  // the HTML head reader: those too must not depend on the chunking.
  let documentWhole = parseDocument(document) { _ in document.count }
  let documentChunked = parseDocument(document) { remaining in
    seed ^= seed << 13
    seed ^= seed >> 7
    seed ^= seed << 17
    return 1 + Int(seed % UInt64(min(remaining, 4096)))
  }
  if documentWhole.events != documentChunked.events
    || documentWhole.feeds != documentChunked.feeds
    || documentWhole.result.failure?.kind != documentChunked.result.failure?.kind
    || documentWhole.result.wellformed != documentChunked.result.wellformed
  {
    fputs("whole:   \(documentWhole)\n", stderr)
    fputs("chunked: \(documentChunked)\n", stderr)
    preconditionFailure("FeedDocumentParser depends on the chunking")
  }

  fuzzJSONStrings(document, seed: seed)
  _ = FeedDateParser.parse(String(decoding: document.prefix(64), as: UTF8.self))
  fuzzHTML(document.assumingMemoryBound(to: UInt8.self))
  return 0
}

/// The document's well-formed UTF-8 prefix (what `JSONFeedReader` lets reach yajl) through
/// yajl in seeded chunks, with `JSONStringBypass` reading the strings and without: the events,
/// the strings and the stop must be the same.
private func fuzzJSONStrings(_ document: UnsafeRawBufferPointer, seed: UInt64) {
  let text = UnsafeRawBufferPointer(
    rebasing: document[..<UTF8Repair.wellFormedPrefix(document).end])
  var sizes: [Int] = []
  var seed = seed
  var remaining = text.count
  while remaining > 0 {
    seed ^= seed << 13
    seed ^= seed >> 7
    seed ^= seed << 17
    let size = 1 + Int(seed % UInt64(min(remaining, 512)))
    sizes.append(size)
    remaining -= size
  }
  let bypassed = jsonEvents(text, sizes: sizes, bypassesStrings: true)
  let yajlAlone = jsonEvents(text, sizes: sizes, bypassesStrings: false)
  if bypassed != yajlAlone {
    fputs("bypassed:   \(bypassed)\n", stderr)
    fputs("yajl alone: \(yajlAlone)\n", stderr)
    preconditionFailure("reading strings before yajl changed the events")
  }
}

private func jsonEvents(_ text: UnsafeRawBufferPointer, sizes: [Int], bypassesStrings: Bool)
  -> [String]
{
  let recorder = JSONEventRecorder()
  guard let parser = YAJLPushParser(handler: recorder, bypassesStrings: bypassesStrings) else {
    return []
  }
  var offset = 0
  for size in sizes {
    parser.push(UnsafeRawBufferPointer(rebasing: text[offset..<offset + size]))
    offset += size
  }
  parser.finish()
  return recorder.events + ["stop: \(String(describing: parser.stop))"]
}

/// Every JSON event as text, strings as their bytes (a string said to hold no control must not).
private final class JSONEventRecorder: JSONEventHandler {
  var events: [String] = []

  func jsonNull() -> Bool { record("null") }
  func jsonBool(_ value: Bool) -> Bool { record("bool \(value)") }
  func jsonNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool { record("number \(Array(text))") }
  func jsonString(_ bytes: UnsafeBufferPointer<UInt8>, mayHoldControls: Bool) -> Bool {
    if !mayHoldControls, ControlCharacters.firstControl(bytes) != nil {
      preconditionFailure("a string said to hold no control holds one")
    }
    return record("string \(Array(bytes))")
  }
  func jsonStartObject() -> Bool { record("{") }
  func jsonKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { record("key \(Array(bytes))") }
  func jsonEndObject() -> Bool { record("}") }
  func jsonStartArray() -> Bool { record("[") }
  func jsonEndArray() -> Bool { record("]") }

  private func record(_ event: String) -> Bool {
    events.append(event)
    return true
  }
}

/// The document as the HTML of a field: the sanitizer's output must be safe as it is (a second
/// pass changes nothing) and keep no `<script`; the text renderer must end; both on any bytes.
private func fuzzHTML(_ html: UnsafeBufferPointer<UInt8>) {
  var sanitizer = HTMLSanitizer()
  for flavour in [HTMLSanitizer.Flavour.html, .xhtml] {
    guard let once = sanitizer.sanitize(html, base: "http://example.com/a/b", flavour: flavour)
    else { continue }
    let twice = once.withUnsafeBufferPointer {
      sanitizer.sanitize($0, base: "http://example.com/a/b", flavour: flavour)
    }
    if twice != nil {
      fputs("once:  \(String(decoding: once, as: UTF8.self))\n", stderr)
      fputs("twice: \(String(decoding: twice!, as: UTF8.self))\n", stderr)
      preconditionFailure("sanitized HTML changed when sanitized again")
    }
    once.withUnsafeBufferPointer { checkSafe($0) }
  }
  var renderer = HTMLTextRenderer()
  _ = renderer.render(html)
}

private func parseDocument(
  _ document: UnsafeRawBufferPointer, chunkSize: (Int) -> Int
) -> (events: [FeedEvent], result: FeedParseResult, feeds: [LinkedFeed]?) {
  var events: [FeedEvent] = []
  let parser = FeedDocumentParser(documentURL: "http://example.com/page") { events.append($0) }
  var offset = 0
  while offset < document.count {
    let count = min(chunkSize(document.count - offset), document.count - offset)
    parser.parse(UnsafeRawBufferPointer(rebasing: document[offset..<offset + count]))
    offset += count
  }
  let result = parser.finish()
  return (events, result, parser.linkedFeeds)
}

private func parse(
  _ document: UnsafeRawBufferPointer, handsTextToBuilder: Bool = true,
  preparesAhead: Bool = false, chunkSize: (Int) -> Int
) -> (events: [FeedEvent], result: FeedParseResult) {
  var events: [FeedEvent] = []
  let parser = StreamingFeedParser(
    documentURL: "http://example.com/feeds/a.xml", declaredCharset: nil,
    preparesAhead: preparesAhead
  ) { events.append($0) }
  parser.handsTextToBuilder = handsTextToBuilder
  var offset = 0
  while offset < document.count {
    let count = min(chunkSize(document.count - offset), document.count - offset)
    parser.parse(UnsafeRawBufferPointer(rebasing: document[offset..<offset + count]))
    offset += count
  }
  // `finish` may hand over the channel: read `events` after it.
  let result = parser.finish()
  return (events, result)
}

/// Sanitized HTML, read again: no `script` or `style` tag, no URI attribute with an
/// unacceptable scheme.
private func checkSafe(_ html: UnsafeBufferPointer<UInt8>) {
  var tokenizer = HTMLTokenizer(html, storage: HTMLAttributeStorage())
  while let token = tokenizer.next() {
    guard case .startTag(let name, _, _) = token else { continue }
    let tag = String(decoding: UnsafeBufferPointer(rebasing: html[name]), as: UTF8.self)
    precondition(
      !["script", "style", "applet", "iframe"].contains(tag.lowercased()), "kept \(tag)")
    for attribute in tokenizer.attributes {
      guard let value = attribute.value else { continue }
      let attributeName = String(
        decoding: UnsafeBufferPointer(rebasing: html[attribute.name]), as: UTF8.self)
      guard ["href", "src", "xlink:href", "action", "poster", "background"].contains(attributeName)
      else { continue }
      let decoded = HTMLPlainText.render(
        String(decoding: UnsafeBufferPointer(rebasing: html[value]), as: UTF8.self))
      var bytes = Array(decoded.utf8)
      let acceptable = bytes.withUnsafeMutableBufferPointer {
        URISchemes.isAcceptable(UnsafeBufferPointer($0))
      }
      precondition(acceptable, "kept \(attributeName)=\(decoded)")
    }
  }
}
