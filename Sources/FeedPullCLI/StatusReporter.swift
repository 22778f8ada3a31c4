import FeedPull
import FeedPullSupport
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// What `feedpull` says on stderr while records go to stdout: a line per failed source (and
/// per source with `-v`), and, when stderr is a terminal and several sources are pulled, one
/// progress line redrawn in place (sources done of total, items, bytes, failures). Sources
/// cancelled by a signal or a failed write are counted, not listed: one line at the end says
/// how many (`cancelled: 9980 sources`), where a line each would bury everything else.
final class StatusReporter: PullRecordSink {
  private struct Counts {
    var done = 0
    var items = 0
    var bytes: Int64 = 0
    var failures = 0
    var cancelled = 0
    var progressShown = false
  }

  private let inner: any PullRecordSink
  private let total: Int
  private let verbosity: CommandLineOptions.Verbosity
  private let showsProgress: Bool
  /// TSan-visible: records of several transfers arrive from several parse threads at once.
  private let counts = TSanVisibleMutex(Counts())
  private let errorOutput = STDERR_FILENO

  init(wrapping inner: any PullRecordSink, total: Int, verbosity: CommandLineOptions.Verbosity) {
    self.inner = inner
    self.total = total
    self.verbosity = verbosity
    showsProgress = verbosity != .quiet && total > 1 && isatty(STDERR_FILENO) == 1
  }

  func receive(_ record: PullRecord) {
    inner.receive(record)
    switch record {
    case .feed: break
    case .item:
      if showsProgress { counts.withLock { $0.items += 1 } }
    case .end(let end):
      counts.withLock { counts in count(end, &counts) }
    }
  }

  /// The records passed on in one call and counted under one lock (a batch of `not_due` ends).
  func receive(contentsOf records: [PullRecord]) {
    inner.receive(contentsOf: records)
    counts.withLock { counts in
      // By index: no copy of each record for the loop (binding an `end` still copies it).
      for index in records.indices {
        switch records[index] {
        case .feed: break
        case .item: counts.items += 1
        case .end(let end): count(end, &counts)
        }
      }
    }
  }

  /// Ends of sources not pulled, passed on as one batch and counted together: each is `ok`
  /// with nothing to say of it (a `not_due` end's `-v` line is the run's notice), so only the
  /// progress line moves, drawn once for the batch where a million such ends drew it a million
  /// times.
  func receive(unpulled ends: any UnpulledEndBatch) {
    inner.receive(unpulled: ends)
    guard ends.count > 0 else { return }
    counts.withLock { counts in
      counts.done += ends.count
      if showsProgress { draw("", &counts) }
    }
  }

  /// Counts an `end` and says what a person should see of it.
  private func count(_ end: EndRecord, _ counts: inout Counts) {
    counts.done += 1
    counts.bytes += end.bytes
    if !end.ok { counts.failures += 1 }
    var message = ""
    // Masked only for a line that names it: a quiet pass of a million sources writes none.
    // Others' text, each on the message's own line (`TextLayout.oneLine`): a source named
    // `http://a/\nfeedpull: all ok` or a server's message with a line break must not start a
    // line of its own.
    var source: String { TextLayout.oneLine(URLPasswordMask.masked(end.source)) }
    if end.error?.kind == .cancelled {
      counts.cancelled += 1
    } else if let error = end.error, verbosity != .quiet {
      message =
        "feedpull: \(source): \(error.kind.rawValue): \(TextLayout.oneLine(error.message))\n"
      // A page's feeds, so that a user in a terminal (`--no-discover`) sees them too.
      for feed in end.feeds {
        message +=
          "feedpull:   links \(TextLayout.oneLine(URLPasswordMask.masked(feed.url)))"
          + (feed.title.map { " (\(TextLayout.oneLine($0)))" } ?? "") + "\n"
      }
    } else if verbosity == .verbose, end.subscription?.skipped == nil {
      message =
        "feedpull: \(source): ok, \(StatsRecord.counted(end.items, "item")), "
        + "\(StatsRecord.counted(Int(end.bytes), "byte"))\n"
    }
    // A source's name, a server's message and a page's titles are others' text.
    if showsProgress || !message.isEmpty { draw(TerminalText.safe(message), &counts) }
  }

  /// Records go out with the progress line taken down first and drawn again after, so that on
  /// a terminal showing both streams the line never lands in the middle of the records.
  func flush() {
    guard showsProgress else {
      inner.flush()
      return
    }
    counts.withLock { counts in
      guard counts.progressShown else {
        inner.flush()
        return
      }
      write("\r\u{1B}[K")
      counts.progressShown = false
      inner.flush()
      draw("", &counts)
    }
  }

  /// Clears the progress line at the end of the run, and says how many sources were cancelled.
  func finish() {
    counts.withLock { counts in
      if counts.progressShown { write("\r\u{1B}[K") }
      counts.progressShown = false
      if counts.cancelled > 0 && verbosity != .quiet {
        write("feedpull: cancelled: \(StatsRecord.counted(counts.cancelled, "source"))\n")
        counts.cancelled = 0
      }
    }
  }

  private func draw(_ message: String, _ counts: inout Counts) {
    var text = counts.progressShown ? "\r\u{1B}[K" : ""
    text += message
    if showsProgress {
      let megabytes = Double(counts.bytes) / 1_048_576
      let rounded = (megabytes * 10).rounded() / 10
      text +=
        "[\(counts.done)/\(total)] \(StatsRecord.counted(counts.items, "item")), \(rounded) MB, "
        + "\(counts.failures) failed"
      counts.progressShown = true
    }
    write(text)
  }

  private func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      _ = Glibc.write(errorOutput, bytes.baseAddress, bytes.count)
    }
  }
}
