#if canImport(Glibc)
  import Glibc
#endif

/// Reads the `<head>` of an HTML page from byte chunks of any size and collects the feeds it
/// links, for feed discovery; the page's body is never parsed. It stops (`isStopped`) once the
/// head is over (`</head>`, or the `<body>` that libxml2 implies from the first body content)
/// or after `maxHeadBytes`, so that the caller can stop reading the page there.
/// Not thread-safe: one page, one thread.
final class HTMLHeadReader: HTMLTagHandler {
  /// Bytes of a page read at most before giving up on its head. Real heads are a few KiB; some
  /// carry inline scripts and styles of hundreds, and a `<link>` after a MiB of them is still
  /// found. A `<link>` past this bound is not: a page is not a feed, and reading it must stay
  /// cheap. libxml2 holds an unfinished `<script>` whole, so this also bounds its memory.
  static let maxHeadBytes = 4 << 20

  private let documentURL: String?
  private let declaredCharset: String?
  private var parser: LibXMLHTMLPushParser?
  private var parserFailed = false
  /// Pages in another encoding reach libxml2 as UTF-8, each bad sequence as U+FFFD.
  private var transcoder: IconvTranscoder?
  private var utf8Repair = UTF8Repair()
  /// The first bytes, held until the encoding is decided (`HTMLCharsetPrescan`).
  private var prescanBytes: [UInt8] = []
  private(set) var encoding: String?
  private var pushedBytes = 0
  private var headOver = false
  private var finished = false
  private var baseHref: String?
  private var links: [(href: String, type: String, title: String?)] = []
  /// UTF-8 after the last `>` handed to libxml2, held until the next `>` (see `feed`).
  private var held: [UInt8] = []

  init(documentURL: String?, declaredCharset: String?) {
    self.documentURL = documentURL
    self.declaredCharset = declaredCharset
  }

  var isStopped: Bool { headOver || finished || parserFailed }

  func parse(_ chunk: UnsafeRawBufferPointer) {
    guard !isStopped, chunk.count > 0 else { return }
    if encoding == nil {
      prescanBytes.append(contentsOf: chunk)
      guard prescanBytes.count >= HTMLCharsetPrescan.window else { return }
      startParser()
      let held = prescanBytes
      prescanBytes = []
      held.withUnsafeBytes { push($0) }
    } else {
      push(chunk)
    }
  }

  /// Ends the page; returns the feeds it links, in page order, resolved.
  func finish() -> (feeds: [LinkedFeed], result: FeedParseResult) {
    defer { finished = true }
    if encoding == nil {
      startParser()
      let held = prescanBytes
      prescanBytes = []
      held.withUnsafeBytes { push($0) }
    }
    finishPushing()
    parser = nil
    let base = baseHref.map { URIResolver.resolve($0, against: documentURL) } ?? documentURL
    let feeds = links.map { link in
      LinkedFeed(
        url: URIResolver.resolve(link.href, against: base), type: link.type, title: link.title)
    }
    let message =
      feeds.isEmpty
      ? "the document is an HTML page that links no feed"
      : "the document is an HTML page, not a feed"
    return (
      feeds,
      FeedParseResult(
        wellformed: true, encoding: encoding,
        failure: FeedParseFailure(kind: .notAFeed, message: message))
    )
  }

  private func startParser() {
    let charset = HTMLCharsetPrescan.charset(of: prescanBytes[...], declared: declaredCharset)
    encoding = charset
    if charset != "utf-8" {
      let decoder = CharsetNames.decoder(for: charset)
      transcoder =
        IconvTranscoder(from: decoder)
        ?? IconvTranscoder(from: String(decoder.map { $0 == "_" ? "-" : $0 }))
      // A charset no decoder knows (a typo in a `<meta>`) is read as UTF-8, as browsers do.
      if transcoder == nil { encoding = "utf-8" }
    }
    parser = LibXMLHTMLPushParser(handler: self)
    if parser == nil { parserFailed = true }
  }

  /// Pushes no byte past `maxHeadBytes`, so that where the reading stops does not depend on
  /// how the page was split.
  private func push(_ bytes: UnsafeRawBufferPointer) {
    guard !isStopped, let parser else { return }
    let room = Self.maxHeadBytes - pushedBytes
    let slice = UnsafeRawBufferPointer(rebasing: bytes.prefix(room))
    pushedBytes += slice.count
    if let transcoder {
      transcoder.process(slice) { repairAndPush($0, parser) }
    } else {
      repairAndPush(slice, parser)
    }
    if pushedBytes >= Self.maxHeadBytes {
      // The bound is a count of the page's bytes, not a tag: what it cuts off goes in as it is.
      pushHeld(parser)
      headOver = true
    }
  }

  private func repairAndPush(_ bytes: UnsafeRawBufferPointer, _ parser: LibXMLHTMLPushParser) {
    utf8Repair.process(bytes) { feed($0, parser) }
  }

  /// Hands libxml2 the page in pieces that each end just after a `>`, whatever the chunks were.
  /// libxml2 2.9.14's HTML push parser decides from the bytes it has whether a tag is complete,
  /// and a tag whose quotes do not pair (`type="a>b</c" href="/f/">`) read one way when a chunk
  /// ended inside it and another way whole (a fuzzer find: a feed link found or not). Cut at
  /// every `>`, the pushes are a function of the page's bytes alone; a page's head has a few
  /// hundred tags, each push about a thousand instructions.
  private func feed(_ bytes: UnsafeRawBufferPointer, _ parser: LibXMLHTMLPushParser) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    var start = 0
    while start < bytes.count, !headOver,
      let found = memchr(base + start, Int32(UInt8(ascii: ">")), bytes.count - start)
    {
      let end = UnsafeRawPointer(found) - base + 1
      let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
      if held.isEmpty {
        parser.push(piece, terminate: false)
      } else {
        held.append(contentsOf: piece)
        pushHeld(parser)
      }
      start = end
    }
    if start < bytes.count, !headOver {
      held.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
    }
  }

  private func pushHeld(_ parser: LibXMLHTMLPushParser) {
    if !held.isEmpty, !headOver { held.withUnsafeBytes { parser.push($0, terminate: false) } }
    held.removeAll(keepingCapacity: true)
  }

  /// What the converters hold back (a sequence cut at the end), then the end of the page.
  private func finishPushing() {
    guard !isStopped, let parser else { return }
    transcoder?.finish { repairAndPush($0, parser) }
    utf8Repair.finish { feed($0, parser) }
    pushHeld(parser)
    if !isStopped { parser.push(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true) }
  }

  // MARK: HTMLTagHandler

  func startTag(_ name: String, attributes: [(name: String, value: String)]) {
    guard !headOver else { return }
    switch name {
    case "base":
      // The first `<base href>` counts, for every URL of the page (links before it too).
      if baseHref == nil, let href = attributes.first(where: { $0.name == "href" })?.value,
        !href.isEmpty
      {
        baseHref = href
      }
    case "link": link(attributes)
    case "body", "frameset": endHead()
    default: break
    }
  }

  func endTag(_ name: String) {
    if name == "head" { endHead() }
  }

  private func endHead() {
    guard !headOver else { return }
    headOver = true
    parser?.stop()
  }

  private func link(_ attributes: [(name: String, value: String)]) {
    func value(_ name: String) -> String? {
      attributes.first(where: { $0.name == name })?.value
    }
    guard let rel = value("rel"),
      rel.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        .contains("alternate"),
      let href = value("href")?.trimmingHTMLSpace(), !href.isEmpty,
      let type = value("type").map(Self.mediaType), Self.feedTypes.contains(type)
    else { return }
    let title = value("title")?.trimmingHTMLSpace()
    links.append((href, type, title?.isEmpty == false ? title : nil))
  }

  /// The types a page's alternate link names a feed with (RSS, Atom, RDF, JSON Feed), and the
  /// older spellings feedparser's feed finder also accepts.
  static let feedTypes: Set<String> = [
    "application/rss+xml", "application/atom+xml", "application/rdf+xml",
    "application/feed+json", "application/json", "application/x.atom+xml",
    "application/x-atom+xml", "application/x-rss+xml",
  ]

  private static func mediaType(_ text: String) -> String {
    let type = text.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
    return type.trimmingHTMLSpace().lowercased()
  }
}

@available(*, unavailable)
extension HTMLHeadReader: Sendable {}

extension String {
  fileprivate func trimmingHTMLSpace() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
    while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
    return String(scalars)
  }
}
