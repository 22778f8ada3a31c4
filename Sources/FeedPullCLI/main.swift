import FeedPull
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull [OPTIONS] SOURCE...`: see `CommandLineOptions.help` and `../shared/CONTRACT.md`.
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

  var store: SQLiteSubscriptionStore?
  if let path = options.statePath {
    do {
      store = try SQLiteSubscriptionStore(path: path)
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

  // A reader that goes away (`feedpull … | head`) must end the run, not kill it mid-write
  // with SIGPIPE; curl's own sockets are safe either way (CURLOPT_NOSIGNAL).
  signal(SIGPIPE, SIG_IGN)

  let format = options.format ?? (isatty(STDOUT_FILENO) == 1 ? .text : .jsonl)
  let output: any PullRecordSink =
    switch format {
    case .jsonl: JSONLinesWriter(fileDescriptor: STDOUT_FILENO)
    case .text: TextWriter(fileDescriptor: STDOUT_FILENO, columns: terminalColumns())
    }
  let reporter = StatusReporter(
    wrapping: output, total: Set(sources).count, verbosity: options.verbosity)
  let puller = FeedPuller(options: options.pull)
  defer { puller.close() }
  guard let store else {
    let ends = puller.pull(sources.map { PullSource($0) }, into: reporter)
    reporter.finish()
    return ends.allSatisfy(\.ok) ? 0 : 1
  }
  let subscribed = SubscribedPull(
    store: store, puller: puller, options: options.subscription, clock: stateClock())
  do {
    let writer = output as? JSONLinesWriter
    // `--due` alone: the state is the subscription list.
    let listed = sources.isEmpty && options.inputFile == nil ? nil : sources
    let result = try subscribed.run(listed, into: reporter) { writer?.failed ?? false }
    reporter.finish()
    for failure in result.storeFailures.prefix(3) {
      printError("feedpull: \(failure.message)\n")
    }
    return result.ends.allSatisfy(\.ok) && result.storeFailures.isEmpty ? 0 : 1
  } catch {
    reporter.finish()
    printError("feedpull: \(error.message)\n")
    return 1
  }
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
