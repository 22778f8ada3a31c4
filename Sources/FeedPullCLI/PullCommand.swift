import Dispatch
import FeedPull
import FeedPullSupport
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull [pull] [OPTIONS] SOURCE...`: one pass over the sources (with `--state`, one check of
/// each subscription: `StatePullCommand`).
enum PullCommand {
  static func run(_ options: CommandLineOptions) -> Int32 {
    let prepared: PreparedRun
    do {
      prepared = try PreparedRun.prepare(options)
    } catch {
      return error.status
    }
    let (sources, puller) = (prepared.listed, prepared.puller)
    if let store = prepared.store {
      return StatePullCommand(options: options, sources: sources, store: store, puller: puller)
        .run()
    }

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
      wrapping: output.sink, total: sources.count, verbosity: options.verbosity)
    let signals = InterruptSignals { batchHolder.cancel() }
    defer { puller.syncShutdown() }

    let done = DispatchSemaphore(value: 0)
    let failed = TSanVisibleMutex(0)
    // A few sources at a time, never the whole list at once: memory stays flat in its length.
    let feeder = SourceFeeder(
      sources, window: max(256, 16 * puller.configuration.maxConcurrentTransfers), puller: puller,
      into: reporter
    ) { failures in
      failed.withLock { $0 = failures }
      done.signal()
    }
    batchHolder.add(cancel: { feeder.stop() })
    feeder.start()
    done.wait()
    reporter.flush()
    reporter.finish()
    if let message = writeFailure.withLock({ $0 }) {
      printError("feedpull: cannot write to \(output.destination): \(message)\n")
      return 1
    }
    if let status = signals.exitStatus { return status }
    return failed.withLock { $0 } == 0 ? 0 : 1
  }
}
