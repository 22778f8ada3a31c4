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
  if !options.pull.trust.verifiesPeer && options.verbosity != .quiet {
    printError(NetworkPolicyOptions.insecureWarning)
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
  if let words = options.stateCommand, let store {
    return StateCommand.run(words, store: store)
  }

  var sources = options.sources
  if let inputFile = options.inputFile {
    do {
      sources += try SubscriptionList.read(path: inputFile)
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

  if options.watch, let store {
    return WatchCommand(options: options, sources: sources, store: store, puller: puller).run()
  }

  // The run stops at the first failed write to stdout (a full disk, a closed pipe) or the first
  // SIGINT/SIGTERM: every source not yet ended ends `cancelled`.
  let batchHolder = BatchHolder()
  let writeFailure = TSanVisibleMutex<String?>(nil)
  let onWriteFailure: @Sendable (String) -> Void = { message in
    writeFailure.withLock { $0 = message }
    batchHolder.cancel()
  }
  let format = options.format ?? (isatty(STDOUT_FILENO) == 1 ? .text : .jsonl)
  let output: any PullRecordSink =
    switch format {
    case .jsonl: JSONLinesWriter(fileDescriptor: STDOUT_FILENO, onWriteFailure: onWriteFailure)
    case .text:
      TextWriter(
        fileDescriptor: STDOUT_FILENO, columns: terminalColumns(), onWriteFailure: onWriteFailure)
    }
  let reporter = StatusReporter(
    wrapping: output, total: Set(sources).count, verbosity: options.verbosity)
  let signals = InterruptSignals { batchHolder.cancel() }
  defer { puller.syncShutdown() }

  let failures: Int
  if let store {
    let subscribed = SubscribedPull(
      store: store, puller: puller, options: options.subscription, clock: stateClock())
    do {
      // `--due` alone: the state is the subscription list.
      let listed = sources.isEmpty && options.inputFile == nil ? nil : sources
      let outputFailed: @Sendable () -> Bool = { writeFailure.withLock { $0 } != nil }
      let result: SubscribedPull.Result
      if store is PostgresSubscriptionStore, options.subscription.onlyDue {
        // Shared by many workers: claim a few sources at a time, as slots free up.
        result = try subscribed.runClaiming(
          registering: sources, slots: options.pull.maxConcurrentTransfers, into: reporter,
          onStart: { batch in batchHolder.add(cancel: { batch.cancel() }) },
          outputFailed: outputFailed, stopRequested: { batchHolder.isCancelled })
      } else {
        batchHolder.add(cancel: { subscribed.cancel() })
        result = try subscribed.run(listed, into: reporter, outputFailed: outputFailed)
      }
      for failure in result.storeFailures.prefix(3) {
        printError("feedpull: \(failure.message)\n")
      }
      failures = result.ends.filter { !$0.ok }.count + result.storeFailures.count
    } catch {
      reporter.finish()
      printError("feedpull: \(error.message)\n")
      return 1
    }
  } else {
    let done = DispatchSemaphore(value: 0)
    let failed = TSanVisibleMutex(0)
    let batch = puller.start(sources.map { PullSource($0) }, into: reporter, keeping: .failedOnly) {
      ends in
      failed.withLock { $0 = ends.count }
      done.signal()
    }
    batchHolder.add(cancel: { batch.cancel() })
    done.wait()
    failures = failed.withLock { $0 }
  }
  reporter.flush()
  reporter.finish()
  if let message = writeFailure.withLock({ $0 }) {
    printError("feedpull: cannot write to standard output: \(message)\n")
    return 1
  }
  if let status = signals.exitStatus { return status }
  return failures == 0 ? 0 : 1
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

/// The store `--state` names: a PostgreSQL database for a `postgresql://` or `postgres://`
/// URI (its lease in seconds from `FEEDPULL_LEASE`, 300 by default), else a SQLite file.
func openStore(_ location: String) throws(StoreError) -> any SubscriptionStore {
  guard PostgresSubscriptionStore.isDatabaseURI(location) else {
    return try SQLiteSubscriptionStore(path: location)
  }
  let lease = ProcessInfo.processInfo.environment["FEEDPULL_LEASE"].flatMap(Double.init) ?? 300
  return try PostgresSubscriptionStore(uri: location, lease: lease)
}

func printError(_ text: String) {
  var text = text
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
