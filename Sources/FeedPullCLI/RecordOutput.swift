import Dispatch
import FeedPull
import FeedPullSupport
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// Where a run's records go, built once for `pull` and `watch`: standard output or the `-o`
/// file (appended to, reopened on SIGHUP so that a log rotation can move it away), in the
/// format `-f` asks for (text on a terminal, else JSON Lines), keeping only the kinds
/// `--records` names.
final class RecordOutput: Sendable {
  /// The writer, behind the `--records` filter: what the pipeline writes into.
  let sink: any PullRecordSink
  let format: CommandLineOptions.Format
  private let json: JSONLinesWriter?
  private let file: AppendedFile?
  private let kinds: Set<CommandLineOptions.RecordKind>
  private let quiet: Bool
  /// With `-o`, SIGHUP as an event on a queue (never code in a signal handler), as the run's
  /// other signals are.
  private let hangUp: TSanVisibleMutex<(any DispatchSourceSignal)?>

  /// Opens the `-o` file when there is one; `onWriteFailure` is told once, with `strerror`'s
  /// text, when a write fails.
  init(_ options: CommandLineOptions, onWriteFailure: @escaping @Sendable (String) -> Void)
    throws(UsageError)
  {
    var descriptor = STDOUT_FILENO
    if let path = options.outputFile {
      let file = try AppendedFile(path: path)
      descriptor = file.descriptor
      self.file = file
    } else {
      file = nil
    }
    format = options.format ?? (isatty(descriptor) == 1 ? .text : .jsonl)
    kinds = options.records
    quiet = options.verbosity == .quiet
    let writer: any PullRecordSink
    switch format {
    case .jsonl:
      let json = JSONLinesWriter(fileDescriptor: descriptor, onWriteFailure: onWriteFailure)
      self.json = json
      writer = json
    case .text:
      json = nil
      var style = TextWriter.Style()
      style.headsQuietSources = options.verbosity == .verbose
      if options.watch {
        // A watch shows when each line came: the item's own date says little about a new item.
        style.lineClock = { Int64(Date().timeIntervalSince1970) }
      }
      writer = TextWriter(
        fileDescriptor: descriptor, columns: terminalColumns(), style: style,
        onWriteFailure: onWriteFailure)
    }
    let allKinds = Set(CommandLineOptions.RecordKind.allCases)
    sink = kinds.isSuperset(of: allKinds) ? writer : RecordFilter(writer, kinds: kinds)
    hangUp = TSanVisibleMutex(file.map { Self.reopening($0, quiet: options.verbosity == .quiet) })
  }

  /// A SIGHUP source that reopens `file`.
  private static func reopening(_ file: AppendedFile, quiet: Bool) -> any DispatchSourceSignal {
    signal(SIGHUP, SIG_IGN)
    let source = DispatchSource.makeSignalSource(
      signal: SIGHUP, queue: DispatchQueue(label: "feedpull.reopen"))
    source.setEventHandler { reopen(file, quiet: quiet) }
    source.activate()
    return source
  }

  deinit {
    hangUp.withLock { $0?.cancel() }
  }

  /// The output of a run about to start; nil when the `-o` file cannot be opened: the usage
  /// error is then said and `puller` shut down, and the run exits 2.
  static func open(
    _ options: CommandLineOptions, for puller: FeedPuller,
    onWriteFailure: @escaping @Sendable (String) -> Void
  ) -> RecordOutput? {
    do {
      return try RecordOutput(options, onWriteFailure: onWriteFailure)
    } catch {
      puller.syncShutdown()
      _ = FeedpullCommand.report(error)
      return nil
    }
  }

  /// The name of what is written to, for messages (`standard output` or the `-o` path).
  var destination: String { file?.path ?? "standard output" }

  /// SIGHUP: the `-o` file opened again by its name (a rotated file stays with whoever moved
  /// it); nothing without `-o`. A file that cannot be opened again leaves the old one in use.
  func reopen() {
    if let file { Self.reopen(file, quiet: quiet) }
  }

  private static func reopen(_ file: AppendedFile, quiet: Bool) {
    if let failure = file.reopen(), !quiet {
      printError("feedpull: cannot reopen \(file.path): \(failure); writing on to the old file\n")
    }
  }

  /// A watch's `stats`: a record in JSON Lines (unless `--records` leaves it out), a readable
  /// line on stderr in the text format.
  func write(_ statistics: WatchStatistics, at now: Int64) {
    guard kinds.contains(.stats) else { return }
    if let json {
      json.write(line: StatsRecord.jsonLine(statistics))
    } else if !quiet {
      printError("feedpull: \(StatsRecord.textLine(statistics, now: now))\n")
    }
  }
}

/// Passes on only the records of the kinds `--records` names.
private final class RecordFilter: PullRecordSink {
  private let inner: any PullRecordSink
  private let feeds: Bool
  private let items: Bool
  private let ends: Bool

  init(_ inner: any PullRecordSink, kinds: Set<CommandLineOptions.RecordKind>) {
    self.inner = inner
    feeds = kinds.contains(.feed)
    items = kinds.contains(.item)
    ends = kinds.contains(.end)
  }

  func receive(_ record: PullRecord) {
    switch record {
    case .feed: if feeds { inner.receive(record) }
    case .item: if items { inner.receive(record) }
    case .end: if ends { inner.receive(record) }
    }
  }

  /// The batch passed on as one, less the kinds not asked for.
  func receive(contentsOf records: [PullRecord]) {
    guard !(feeds && items && ends) else { return inner.receive(contentsOf: records) }
    inner.receive(contentsOf: records.filter(passes))
  }

  /// Passed on as one batch when `end`s are asked for, else dropped.
  func receive(unpulled ends: any UnpulledEndBatch) {
    if self.ends { inner.receive(unpulled: ends) }
  }

  private func passes(_ record: PullRecord) -> Bool {
    switch record {
    case .feed: feeds
    case .item: items
    case .end: ends
    }
  }

  func flush() { inner.flush() }
}

/// The `-o` file: appended to, and reopened by name on request. The descriptor number never
/// changes (the new file is `dup2`'d onto it), so writers on other threads keep writing to it and
/// each write lands whole in the old file or the new one: nothing is lost in a rotation.
private final class AppendedFile: Sendable {
  let path: String
  let descriptor: Int32

  init(path: String) throws(UsageError) {
    self.path = path
    let descriptor = AppendedFile.open(path)
    guard descriptor >= 0 else {
      throw UsageError(message: "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Nil when the file at `path` now receives the records; else why not.
  func reopen() -> String? {
    let fresh = AppendedFile.open(path)
    guard fresh >= 0 else { return String(cString: strerror(errno)) }
    defer { close(fresh) }
    guard dup2(fresh, descriptor) >= 0 else { return String(cString: strerror(errno)) }
    return nil
  }

  private static func open(_ path: String) -> Int32 {
    Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
  }
}
