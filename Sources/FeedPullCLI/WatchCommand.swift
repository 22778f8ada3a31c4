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
      failure.withLock { $0 = $0 ?? "cannot write to standard output: \(message)" }
      stop()
    }
    let format = options.format ?? (isatty(STDOUT_FILENO) == 1 ? .text : .jsonl)
    var jsonWriter: JSONLinesWriter?
    let output: any PullRecordSink
    switch format {
    case .jsonl:
      let writer = JSONLinesWriter(fileDescriptor: STDOUT_FILENO, onWriteFailure: onWriteFailure)
      jsonWriter = writer
      output = writer
    case .text:
      output = TextWriter(
        fileDescriptor: STDOUT_FILENO, columns: terminalColumns(), onWriteFailure: onWriteFailure)
    }
    let reporter = StatusReporter(wrapping: output, total: 0, verbosity: options.verbosity)
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
    let statsWriter = jsonWriter
    let statistics = options.statsInterval.map { interval in
      StatisticsTimer(every: interval) {
        Self.report(loop.statistics(), json: statsWriter)
      }
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
    guard let inputFile = options.inputFile else { return }
    do {
      let listed = options.sources + (try SubscriptionList.read(path: inputFile))
      try loop.replace(with: listed)
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

  /// A `stats` record on stdout (JSON Lines), or a line on stderr (text format).
  private static func report(_ statistics: WatchStatistics, json: JSONLinesWriter?) {
    var fields = [
      "\"type\":\"stats\"", "\"sources\":\(statistics.sources)", "\"due\":\(statistics.due)",
      "\"in_flight\":\(statistics.inFlight)", "\"pulls\":\(statistics.pulls)",
      "\"items\":\(statistics.items)", "\"bytes\":\(statistics.bytes)",
    ]
    let errors = statistics.errors.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
    fields.append("\"errors\":{\(errors.joined(separator: ","))}")
    if let next = statistics.nextDue {
      fields.append("\"next_due\":\"\(StateCommand.rfc3339(next))\"")
    }
    let line = "{" + fields.joined(separator: ",") + "}"
    if let json {
      json.write(line: Array(line.utf8))
    } else {
      printError("feedpull: \(line)\n")
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
