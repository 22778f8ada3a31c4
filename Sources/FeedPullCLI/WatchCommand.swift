import Dispatch
import FeedPull
import FeedPullSupport
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull --watch --state PATH (SOURCE… | -i FILE)`: a `SubscriptionRun` that watches, on
/// any store, until SIGINT or SIGTERM (exit 0 once the pulls in flight have ended `cancelled`
/// and been recorded). SIGHUP re-reads `-i`. docs/watch.md has the design.
struct WatchCommand {
  let command: StatePullCommand

  init(_ command: StatePullCommand) {
    self.command = command
  }

  func run() -> Int32 {
    let options = command.options
    let runHolder = TSanVisibleMutex<SubscriptionRun?>(nil)
    let failure = TSanVisibleMutex<String?>(nil)
    let onWriteFailure: @Sendable (String) -> Void = { message in
      let destination = options.outputFile ?? "standard output"
      failure.withLock { $0 = $0 ?? "cannot write to \(destination): \(message)" }
      runHolder.withLock { $0 }?.outputFailed()
    }
    guard
      let output = RecordOutput.open(options, for: command.puller, onWriteFailure: onWriteFailure)
    else { return 2 }
    let reporter = StatusReporter(wrapping: output.sink, total: 0, verbosity: options.verbosity)
    let run = SubscriptionRun(
      store: command.store, puller: command.puller, configuration: command.configuration,
      into: reporter, notices: NoticePrinter(verbosity: options.verbosity).print)
    runHolder.withLock { $0 = run }
    let signals = WatchSignals(
      onStop: { run.stop() }, onReload: { [options] in Self.reload(options: options, run: run) })
    run.start()
    let clock = command.configuration.clock
    let statistics = options.statsInterval.map { interval in
      StatisticsTimer(every: interval) { output.write(run.statistics, at: clock.now.wholeSeconds) }
    }
    let summary = run.wait()
    statistics?.cancel()
    withExtendedLifetime(signals) {}
    reporter.flush()
    reporter.finish()
    command.puller.syncShutdown()
    if let message = failure.withLock({ $0 }) {
      printError("feedpull: \(message)\n")
      return 1
    }
    if let error = summary.storeError {
      printError("feedpull: \(error.message)\n")
      return 1
    }
    return 0
  }

  /// SIGHUP: the command line's sources and `-i` read again; the old list stays when the file
  /// cannot be read.
  static func reload(options: CommandLineOptions, run: SubscriptionRun) {
    guard SourceInputs.canReread(options) else { return }
    do {
      run.reload(try SourceInputs.gatherList(options))
    } catch {
      printError("feedpull: \(error); the list stays as it was\n")
    }
  }
}

/// The `--stats-interval` timer: opt-in, and apart from the watch's own timer.
private final class StatisticsTimer: Sendable {
  private let timer: TSanVisibleMutex<any DispatchSourceTimer>

  init(every interval: Duration, _ body: @escaping @Sendable () -> Void) {
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "feedpull.stats"))
    let nanoseconds = Int(
      interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
    )
    timer.schedule(
      deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
      leeway: .milliseconds(100))
    timer.setEventHandler(handler: body)
    timer.activate()
    self.timer = TSanVisibleMutex(timer)
  }

  func cancel() {
    timer.withLock { $0.cancel() }
  }
}
