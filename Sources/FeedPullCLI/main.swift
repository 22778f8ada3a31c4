import Dispatch
import FeedPull
import FeedPullSupport
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull [OPTIONS] SOURCE...`: see `CommandLineOptions.help` and docs/format.md.
func runFeedpull() -> Int32 {
  let options: CommandLineOptions
  do {
    options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()))
  } catch {
    printError("feedpull: \(error.message)\nTry 'feedpull --help'.\n")
    return 2
  }
  if options.showHelp {
    print(CommandLineOptions.help)
    return 0
  }
  if options.showVersion {
    print("feedpull \(FeedPullVersion.current)")
    return 0
  }

  if let words = options.stateCommand, let path = options.statePath {
    return StateCommand.run(words, location: path)
  }
  var store: (any SubscriptionStore)?
  if let path = options.statePath {
    do {
      store = try openStore(path)
    } catch {
      printError("feedpull: \(error.message)\n")
      return 1
    }
  }

  // With a state, the list is read into a `SourceList` (a million lines stay small); without,
  // into the puller's sources.
  var sources = options.sources
  var listed = SourceList(options.sources)
  if let inputFile = options.inputFile {
    do {
      if store != nil {
        try listed.append(contentsOfListAt: inputFile)
      } else {
        sources += try SubscriptionList.read(path: inputFile)
      }
    } catch {
      printError("feedpull: \(error.description)\n")
      return 2
    }
  }

  if options.verbosity == .verbose, let note = LibXMLVersion.note {
    printError("feedpull: \(note)\n")
  }

  // A reader that goes away (`feedpull … | head`) must end the run, not kill it mid-write
  // with SIGPIPE; curl's own sockets are safe either way (CURLOPT_NOSIGNAL).
  signal(SIGPIPE, SIG_IGN)

  let puller: FeedPuller
  do {
    puller = try FeedPuller(configuration: options.pull)
  } catch {
    printError("feedpull: cannot start: \(error.message)\n")
    return 1
  }

  if let store {
    let command = StatePullCommand(options: options, sources: listed, store: store, puller: puller)
    return options.watch ? WatchCommand(command).run() : command.run()
  }

  // The run stops at the first failed write to stdout (a full disk, a closed pipe) or the first
  // SIGINT/SIGTERM: every source not yet ended ends `cancelled`.
  let batchHolder = BatchHolder()
  let writeFailure = TSanVisibleMutex<String?>(nil)
  let onWriteFailure: @Sendable (String) -> Void = { message in
    writeFailure.withLock { $0 = message }
    batchHolder.cancel()
  }
  let reporter = StatusReporter(
    wrapping: outputWriter(options, onWriteFailure: onWriteFailure), total: Set(sources).count,
    verbosity: options.verbosity)
  let signals = InterruptSignals { batchHolder.cancel() }
  defer { puller.syncShutdown() }

  let done = DispatchSemaphore(value: 0)
  let failed = TSanVisibleMutex(0)
  let batch = puller.start(sources.map { PullSource($0) }, into: reporter, keeping: .failedOnly) {
    ends in
    failed.withLock { $0 = ends.count }
    done.signal()
  }
  batchHolder.add(cancel: { batch.cancel() })
  done.wait()
  reporter.flush()
  reporter.finish()
  if let message = writeFailure.withLock({ $0 }) {
    printError("feedpull: cannot write to standard output: \(message)\n")
    return 1
  }
  if let status = signals.exitStatus { return status }
  return failed.withLock { $0 } == 0 ? 0 : 1
}

/// Standard output in the format asked for (text on a terminal, else JSON Lines).
func outputWriter(
  _ options: CommandLineOptions, onWriteFailure: @escaping @Sendable (String) -> Void
) -> any PullRecordSink {
  let format = options.format ?? (isatty(STDOUT_FILENO) == 1 ? .text : .jsonl)
  switch format {
  case .jsonl: return JSONLinesWriter(fileDescriptor: STDOUT_FILENO, onWriteFailure: onWriteFailure)
  case .text:
    return TextWriter(
      fileDescriptor: STDOUT_FILENO, columns: terminalColumns(), onWriteFailure: onWriteFailure)
  }
}

/// How to cancel the run (its pull, or each claim's batch against a shared store), which a signal
/// or a failed write may ask for before the run has begun.
final class BatchHolder: Sendable {
  private let state = TSanVisibleMutex<(cancels: [@Sendable () -> Void], cancelled: Bool)>(
    ([], false))

  func add(cancel: @escaping @Sendable () -> Void) {
    let cancelled = state.withLock { state in
      state.cancels.append(cancel)
      return state.cancelled
    }
    if cancelled { cancel() }
  }

  /// True once the run was told to stop (a signal, a failed write).
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  func cancel() {
    let cancels = state.withLock { state in
      state.cancelled = true
      return state.cancels
    }
    cancels.forEach { $0() }
  }
}

/// The store `--state` names (`StoreLocation`: a PostgreSQL URI or a SQLite file), its lease in
/// seconds from `FEEDPULL_LEASE` (60 by default).
func openStore(_ location: String) throws(StoreError) -> any SubscriptionStore {
  var options = StoreLocation.Options()
  if let seconds = ProcessInfo.processInfo.environment["FEEDPULL_LEASE"].flatMap(Double.init),
    seconds > 0
  {
    options.lease = .milliseconds(Int64(seconds * 1000))
  }
  return try StoreLocation(location).open(options)
}

/// A line on stderr; it may quote a source or a server's words, so only what a terminal shows
/// as text gets there (`TerminalText`).
func printError(_ text: String) {
  var text = TerminalText.safe(text)
  text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}

/// The terminal's width for the text format, 80 when unknown.
func terminalColumns() -> Int {
  var size = winsize()
  if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
    return Int(size.ws_col)
  }
  return 80
}

exit(runFeedpull())
