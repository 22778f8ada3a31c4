import Dispatch
import FeedPull
import FeedPullSupport
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull [pull] [OPTIONS] SOURCE...`: one pass over the sources (with `--state`, one check of
/// each subscription).
enum PullCommand {
  static func run(_ options: CommandLineOptions) -> Int32 {
    let prepared: PreparedRun
    do {
      prepared = try PreparedRun.prepare(options)
    } catch {
      return error.status
    }
    let (sources, store, puller) = (prepared.sources, prepared.store, prepared.puller)

    // The run stops at the first failed write to stdout (a full disk, a closed pipe) or the first
    // SIGINT/SIGTERM: every source not yet ended ends `cancelled`.
    let batchHolder = BatchHolder()
    let writeFailure = TSanVisibleMutex<String?>(nil)
    let onWriteFailure: @Sendable (String) -> Void = { message in
      writeFailure.withLock { $0 = message }
      batchHolder.cancel()
    }
    guard let output = RecordOutput.open(options, for: puller, onWriteFailure: onWriteFailure)
    else { return 2 }
    let reporter = StatusReporter(
      wrapping: output.sink, total: Set(sources).count, verbosity: options.verbosity)
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
      let batch = puller.start(sources.map { PullSource($0) }, into: reporter, keeping: .failedOnly)
      {
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
      printError("feedpull: cannot write to \(output.destination): \(message)\n")
      return 1
    }
    if let status = signals.exitStatus { return status }
    return failures == 0 ? 0 : 1
  }
}
