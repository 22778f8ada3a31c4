import HTTPWorker

/// Feed discovery: when a source turns out to be an HTML page that links feeds, the first feed
/// it may follow is pulled as the same source. The page writes no records; the feed's records
/// carry the feed's URL and its `end` says `discovered_from`. Its transfer gets what is left of
/// the source's `--timeout` and `--max-redirects`, so that a page and its feed together stay
/// within one source's limits, and its document has no discovery of its own: a page that links
/// itself, or a "feed" that is again a page, ends `not_a_feed` instead of looping.
extension FeedPuller {
  /// The `DocumentPull.discovery` of a source's first document; nil with `--no-discover`.
  func discovery(
    of source: PullSource, into sink: any PullRecordSink, batch: PullBatch,
    onEnd: @escaping @Sendable (EndRecord) -> Void
  ) -> (@Sendable (DocumentPull, [LinkedFeed]) -> Bool)? {
    guard configuration.discoversFeeds else { return nil }
    return { [self] page, feeds in
      guard let feed = Self.followable(feeds, from: page.end.url) else { return false }
      pullDiscovered(
        feed, source: source, pageURL: page.end.url, startNanoseconds: page.startNanoseconds,
        redirectCount: page.redirectCount, into: sink, batch: batch, onEnd: onEnd)
      return true
    }
  }

  /// The first feed a page may lead to: a page fetched over http(s) only to http(s) feeds (a
  /// web page must not make feedpull read a local file); a local page also to local files.
  static func followable(_ feeds: [LinkedFeed], from pageURL: String?) -> LinkedFeed? {
    let pageIsLocal = pageURL.map { !isHTTP($0) } ?? true
    return feeds.first { feed in
      isHTTP(feed.url) || (pageIsLocal && feed.url.lowercased().hasPrefix("file:"))
    }
  }

  private static func isHTTP(_ url: String) -> Bool {
    let lowered = url.lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
  }

  private func pullDiscovered(
    _ feed: LinkedFeed, source: PullSource, pageURL: String?, startNanoseconds: Int64,
    redirectCount: Int, into sink: any PullRecordSink, batch: PullBatch,
    onEnd: @escaping @Sendable (EndRecord) -> Void
  ) {
    let location = SourceOrigin(feed.url)
    let maxBytes: Int64? =
      if case .http = location { configuration.maxNetworkBodyBytes } else {
        configuration.maxLocalBodyBytes
      }
    let document = DocumentPull(
      source: source.source, sink: sink, maxBytes: maxBytes, html: configuration.html,
      startNanoseconds: startNanoseconds, onEnd: onEnd)
    document.update { $0.discoveredFrom = pageURL }
    switch location {
    case .http(let linked):
      // Links were resolved against the page's URL without its password; a feed on the
      // page's own site gets it back.
      let url = pageURL.map { URLPasswordMask.restoringUserInfo(of: $0, in: linked) } ?? linked
      // The page's validators belong to the page, not to the feed it links.
      var feedSource = source
      feedSource.ifNoneMatch = nil
      feedSource.ifModifiedSince = nil
      var request = transferRequest(for: feedSource, url: url)
      let elapsed = Duration.nanoseconds(DocumentPull.monotonicNanoseconds() - startNanoseconds)
      let timeLeft = request.timeout - elapsed
      guard timeLeft > .zero else {
        document.update { $0.url = url }
        document.complete(
          PullError(kind: .timeout, message: "no time left for the discovered feed"))
        return
      }
      request.timeout = timeLeft
      request.connectTimeout = min(request.connectTimeout, timeLeft)
      request.maxRedirects = max(0, request.maxRedirects - redirectCount)
      startTransfer(request, of: document, into: sink, batch: batch)
    case .file, .standardInput:
      // The page's own reader thread is the one asking; it reads the feed itself.
      LocalSourceReader.read(
        location, into: document, flowControl: FlowControl.of(sink),
        deadline: Self.deadline(
          startedAt: startNanoseconds, timeout: source.timeout ?? configuration.timeout),
        isCancelled: { batch.isCancelled })
    case .unsupported(let scheme):
      document.update { $0.url = feed.url }
      document.complete(
        PullError(kind: .protocol, message: "unsupported URL scheme \"\(scheme)\""))
    }
  }
}
