import Dispatch
import FeedPull
import FeedPullSupport
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull --watch --state PATH (SOURCE… | -i FILE)`: one process that pulls each source when
/// its next check comes, until SIGINT or SIGTERM (exit 0 once the pulls in flight have ended
/// `cancelled` and been recorded). SIGHUP re-reads `-i`. docs/watch.md has the design.
struct WatchCommand {
  let options: CommandLineOptions
  let sources: [String]
  let store: any SubscriptionStore
  let puller: FeedPuller

  func run() -> Int32 {
    let stopped = DispatchSemaphore(value: 0)
    let failure = TSanVisibleMutex<String?>(nil)
    let loopHolder = TSanVisibleMutex<WatchLoop?>(nil)
    let stop: @Sendable () -> Void = {
      loopHolder.withLock { $0 }?.stop { stopped.signal() }
    }
    let onWriteFailure: @Sendable (String) -> Void = { message in
      let destination = options.outputFile ?? "standard output"
      failure.withLock { $0 = $0 ?? "cannot write to \(destination): \(message)" }
      stop()
    }
    guard let output = RecordOutput.open(options, for: puller, onWriteFailure: onWriteFailure)
    else { return 2 }
    let reporter = StatusReporter(wrapping: output.sink, total: 0, verbosity: options.verbosity)
    if let shared = store as? PostgresSubscriptionStore {
      return SharedWatch(
        options: options, sources: sources, store: shared, puller: puller, output: reporter,
        writeFailure: failure
      ).run()
    }
    let quiet = options.verbosity == .quiet
    let loop = WatchLoop(
      store: store, puller: puller, options: options.subscription, clock: Self.clock(),
      into: reporter, outputFailed: { failure.withLock { $0 } != nil },
      onStoreFailure: { error in
        if !quiet { printError("feedpull: \(error.message)\n") }
      })
    loopHolder.withLock { $0 = loop }
    let signals = WatchSignals(onStop: stop) { [options, sources] in
      Self.reload(options: options, sources: sources, loop: loop)
    }
    do {
      try loop.start(sources)
    } catch {
      printError("feedpull: \(error.message)\n")
      puller.syncShutdown()
      return 1
    }
    let clock = Self.clock()
    let statistics = options.statsInterval.map { interval in
      StatisticsTimer(every: interval) { output.write(loop.statistics(), at: clock()) }
    }
    stopped.wait()
    statistics?.cancel()
    withExtendedLifetime(signals) {}
    reporter.flush()
    reporter.finish()
    puller.syncShutdown()
    if let message = failure.withLock({ $0 }) {
      printError("feedpull: \(message)\n")
      return 1
    }
    return 0
  }

  /// SIGHUP: the command line's sources and `-i` read again; the old list stays when the file
  /// cannot be read.
  static func reload(options: CommandLineOptions, sources: [String], loop: WatchLoop) {
    guard SourceInputs.canReread(options) else { return }
    do {
      try loop.replace(with: try SourceInputs.gather(options))
    } catch let error as StoreError {
      printError("feedpull: \(error.message)\n")
    } catch {
      printError("feedpull: \(error); the list stays as it was\n")
    }
  }

  /// The state's clock for a watch: the system's, or `FEEDPULL_NOW` as the time at start,
  /// moving on with real time from there (a test starts a watch at a chosen moment).
  static func clock() -> @Sendable () -> Int64 {
    guard let text = ProcessInfo.processInfo.environment["FEEDPULL_NOW"], let start = Int64(text)
    else {
      return { Int64(Date().timeIntervalSince1970) }
    }
    let origin = DispatchTime.now().uptimeNanoseconds
    return { start + Int64((DispatchTime.now().uptimeNanoseconds - origin) / 1_000_000_000) }
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
