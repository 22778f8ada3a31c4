import FeedParser
import HTTPWorker

#if canImport(Glibc)
  import Glibc
#endif

/// One source's document on its way from bytes to records, whichever way its bytes come (a
/// transfer, a file, standard input): it feeds each chunk to the source's own parser, writes
/// records as the parser hands them over, and writes the `end` record exactly once.
/// Confined to one thread at a time: its transfer's parse queue (or the worker thread, for the
/// async API), or a local reader.
final class DocumentPull {
  let source: String
  private let sink: any PullRecordSink
  private let onEnd: (EndRecord) -> Void
  private let maxBytes: Int64?
  /// What becomes of the feed's HTML fields (`FeedPuller.Configuration.html`).
  private let html: HTMLMode
  let startNanoseconds: Int64
  private var parser: FeedDocumentParser?
  /// The end record being filled in (status, URL, parse results). `complete` hands it on and
  /// leaves a blank one here: read it before then (discovery reads the page's final URL).
  private(set) var end: EndRecord
  private var ended = false
  /// Redirects followed to reach the document, which a discovered feed's transfer may not
  /// follow again (the source's `--max-redirects` covers page and feed together).
  var redirectCount = 0
  /// Called when the document is an HTML page that links feeds: true when it has taken the
  /// source over (a discovered feed is being pulled, and will write the `end`). Nil for a
  /// discovered feed itself: discovery happens once per source.
  var discovery: ((_ page: DocumentPull, _ feeds: [LinkedFeed]) -> Bool)?
  /// Set before the first chunk: hash the body for `EndRecord.bodyDigest`.
  var digestsBody = false
  private var digest = BodyDigest()

  /// - Parameter startNanoseconds: when the source started; a discovered feed continues its
  ///   page's clock.
  init(
    source: String, sink: any PullRecordSink, maxBytes: Int64?, html: HTMLMode = .safe,
    startNanoseconds: Int64 = DocumentPull.monotonicNanoseconds(),
    onEnd: @escaping (EndRecord) -> Void
  ) {
    self.source = source
    self.sink = sink
    self.maxBytes = maxBytes
    self.html = html
    self.startNanoseconds = startNanoseconds
    self.onEnd = onEnd
    end = EndRecord(source: source)
  }

  /// Fields known before the body (status, headers, final URL) go into the end record here.
  func update(_ body: (inout EndRecord) -> Void) { body(&end) }

  /// Starts the document: from here on, chunks are parsed. `preparesAhead`: see
  /// `StreamingFeedParser.init`; `contentType` helps tell feeds, JSON Feeds and pages apart;
  /// `baseURL` is what relative links resolve against when it is not `documentURL` (an HTTP
  /// `Content-Location`, `DocumentBase`).
  func begin(
    documentURL: String?, baseURL: String? = nil, charset: String?, contentType: String? = nil,
    preparesAhead: Bool = false
  ) {
    end.url = documentURL
    let source = source
    let sink = sink
    // Links are resolved against the URL without its user information: a private feed's
    // relative links must not carry its password into every item.
    parser = FeedDocumentParser(
      documentURL: (baseURL ?? documentURL).map(URLPasswordMask.withoutUserInfo),
      declaredCharset: charset, contentType: contentType, html: html, preparesAhead: preparesAhead
    ) {
      [unowned self] event in
      switch event {
      case .channel(let channel):
        end.feedSchedule = channel.schedule
        sink.receive(.feed(FeedRecord(source: source, url: documentURL, channel: channel)))
      case .item(let item):
        end.items += 1
        sink.receive(.item(ItemRecord(source: source, item: item)))
      }
    }
  }

  /// The parser while the body is being parsed, nil before and after: tests hold it weakly to
  /// see it freed before the `end` record.
  var currentParser: FeedDocumentParser? { parser }

  /// True once the parser has stopped for good: the rest of the body is not needed.
  var parserStopped: Bool { parser?.isStopped ?? false }

  /// Parses one chunk and writes out the records it completed (unless `flushing` is false: the
  /// caller has more bytes at hand and flushes after them). Returns false when the body went
  /// past `maxBytes` (the bytes within the limit were parsed) and the source must fail.
  @discardableResult
  func consume(_ chunk: UnsafeRawBufferPointer, flushing: Bool = true) -> Bool {
    var chunk = chunk
    var withinLimit = true
    if let maxBytes, end.bytes + Int64(chunk.count) > maxBytes {
      chunk = UnsafeRawBufferPointer(rebasing: chunk[..<Int(maxBytes - end.bytes)])
      withinLimit = false
    }
    end.bytes += Int64(chunk.count)
    if digestsBody { digest.add(chunk) }
    parser?.parse(chunk)
    if flushing || !withinLimit || parserStopped { sink.flush() }
    return withinLimit
  }

  /// Writes out the records of every chunk consumed so far, before the source waits for more.
  func catchUp() {
    parser?.catchUp()
    sink.flush()
  }

  /// Ends the source: finishes the parse (if a body was parsed) and writes the `end` record.
  /// A transport error wins over what the parser says; items already written stay written.
  ///
  /// The parser (and with it libxml2's context) is released before the `end` record is
  /// written: the last `end` may let the process exit, and exit runs libxml2's own clean-up
  /// (`xmlCleanupParser` frees the lock that freeing a context takes), so no context may still
  /// be freed on this thread by then (docs/worker.md, "Stopping").
  func complete(_ transportError: PullError?) {
    guard !ended else { return }
    ended = true
    let parsed = parser != nil
    let feeds = finishParse(transportError)
    if let feeds, transportError == nil, !feeds.isEmpty, let discovery, discovery(self, feeds) {
      return
    }
    if let transportError { end.error = transportError }
    if digestsBody && parsed { end.bodyDigest = digest.value }
    end.elapsedMilliseconds = Int(
      (DocumentPull.monotonicNanoseconds() - startNanoseconds) / 1_000_000)
    // Moved out, not read twice from the property: each read of a class's stored record
    // copied it (a dozen reference counts each way).
    var record = EndRecord(source: source)
    swap(&record, &end)
    sink.receive(.end(record))
    sink.flush()
    onEnd(record)
  }

  /// Finishes the parse into the end record and releases the parser; returns the feeds an HTML
  /// page links to (nil for a feed).
  private func finishParse(_ transportError: PullError?) -> [LinkedFeed]? {
    guard let parser else { return nil }
    self.parser = nil
    let result = parser.finish()
    end.wellformed = result.wellformed
    end.encoding = result.encoding
    if transportError == nil, let failure = result.failure {
      end.error = PullError(failure)
    }
    let feeds = parser.linkedFeeds
    if let feeds { end.feeds = feeds }
    return feeds
  }

  static func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }
}

@available(*, unavailable)
extension DocumentPull: Sendable {}
