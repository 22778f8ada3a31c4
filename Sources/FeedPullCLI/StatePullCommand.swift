import FeedPull
import FeedPullSupport
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull --state PATH [--due] SOURCE…|-i FILE` (and `--due` alone: every due source of the
/// state): one pass of `SubscriptionRun`. SIGINT or SIGTERM stop it (every source not ended
/// ends `cancelled`; exit 130 or 143); a failed write to standard output stops it with 1.
struct StatePullCommand {
  let options: CommandLineOptions
  let sources: SourceList
  let store: any SubscriptionStore
  let puller: FeedPuller

  /// The run's configuration from the command line.
  var configuration: SubscriptionRun.Configuration {
    let stateIsTheList = sources.isEmpty && options.inputFile == nil
    var configuration = SubscriptionRun.Configuration(
      sources: stateIsTheList ? .everyDueSource : .named(sources), watch: options.watch)
    configuration.options = options.subscription
    configuration.clock = Self.clock(watching: options.watch)
    return configuration
  }

  func run() -> Int32 {
    let runHolder = TSanVisibleMutex<SubscriptionRun?>(nil)
    let writeFailure = TSanVisibleMutex<String?>(nil)
    guard
      let output = RecordOutput.open(
        options, for: puller,
        onWriteFailure: { message in
          writeFailure.withLock { $0 = $0 ?? message }
          runHolder.withLock { $0 }?.outputFailed()
        })
    else { return 2 }
    let reporter = StatusReporter(
      wrapping: output.sink, total: sources.count, verbosity: options.verbosity)
    let run = SubscriptionRun(
      store: store, puller: puller, configuration: configuration, into: reporter,
      notices: NoticePrinter(verbosity: options.verbosity).print)
    runHolder.withLock { $0 = run }
    let signals = InterruptSignals { run.stop() }
    let summary = run.run()
    reporter.flush()
    reporter.finish()
    puller.syncShutdown()
    if let message = writeFailure.withLock({ $0 }) {
      printError("feedpull: cannot write to \(output.destination): \(message)\n")
      return 1
    }
    if let status = signals.exitStatus { return status }
    if let error = summary.storeError {
      printError("feedpull: \(error.message)\n")
      return 1
    }
    return summary.succeeded ? 0 : 1
  }

  /// The schedule's clock: the system's, or `FEEDPULL_NOW` (seconds since 1970) as the moment of
  /// the run (tests move time with it): fixed for a pass, moving on with real time from there
  /// for a watch (a fixed time would never let anything become due).
  static func clock(watching: Bool) -> SubscriptionClock {
    guard let text = environmentVariable("FEEDPULL_NOW"), let start = Int64(text)
    else { return .system }
    return watching ? .starting(at: .seconds(start)) : .fixed(at: .seconds(start))
  }
}

/// What a run tells a person on stderr: with `-v`, a named source not due (until when) and an
/// idle watch's next wake (when and why); unless `-q`, a re-read list, a store that failed or
/// came back, and the first ends that could not be recorded.
struct NoticePrinter: Sendable {
  let verbosity: CommandLineOptions.Verbosity
  private let recordFailures = TSanVisibleMutex(0)

  init(verbosity: CommandLineOptions.Verbosity) {
    self.verbosity = verbosity
  }

  func print(_ notice: SubscriptionNotice) {
    guard verbosity != .quiet else { return }
    switch notice {
    case .notDue(let source, let until, let reason):
      guard verbosity == .verbose else { return }
      let shown = TextLayout.oneLine(URLPasswordMask.masked(source))
      printError(
        "feedpull: \(shown): not due until \(StateCommand.rfc3339(until))\(Self.why(reason))\n")
    case .idle(let until, let cause):
      guard verbosity == .verbose else { return }
      let when = until.map { "until \(StateCommand.rfc3339($0))" } ?? "until something changes"
      printError("feedpull: idle \(when): \(Self.describe(cause))\n")
    case .reloaded(let added, let removed, let count):
      printError(
        "feedpull: list read again: \(added) added, \(removed) removed, \(count) sources\n")
    case .storeFailed(let error):
      printError("feedpull: \(error.message); trying again\n")
    case .storeBack:
      printError("feedpull: the state answers again\n")
    case .recordFailed(let error):
      let count = recordFailures.withLock { count in
        count += 1
        return count
      }
      if count <= 3 { printError("feedpull: \(error.message)\n") }
    }
  }

  private static func why(_ reason: CheckReason?) -> String {
    reason.map { " (\($0.rawValue))" } ?? ""
  }

  private static func describe(_ cause: WakeCause) -> String {
    switch cause {
    // A source's password as `***`, as in every line that names a source.
    case .check(let source, let reason):
      "next check of \(URLPasswordMask.masked(source))\(why(reason))"
    case .leaseEnds(let source):
      "another process's lease on \(URLPasswordMask.masked(source)) ends"
    case .storeCheck: "the next due source of the shared state"
    case .leaseRenewal: "renewing the leases held"
    case .storeRetry: "asking the state again"
    case .nothing: "nothing is scheduled"
    }
  }
}
