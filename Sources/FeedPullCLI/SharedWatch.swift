import Dispatch
import FeedPull
import FeedPullSupport
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull --watch --state postgresql://…`: one of any number of workers on one shared store.
///
/// Each pass claims due sources a few at a time, as its `-j` slots free (`runClaiming`: a lease
/// per source, so no two workers pull one source in one due period); between passes the worker
/// sleeps until the store's earliest next check, or the end of a lease another worker holds,
/// with one timed wait that a signal ends early. SIGHUP registers the sources of the list read
/// again (on a shared store a worker's list only adds: other workers' sources are not its to
/// remove); SIGINT and SIGTERM end the transfers in flight `cancelled`, record them, and exit 0.
struct SharedWatch {
  let options: CommandLineOptions
  let sources: [String]
  let store: PostgresSubscriptionStore
  let puller: FeedPuller
  let output: StatusReporter
  let writeFailure: TSanVisibleMutex<String?>

  /// The longest sleep between passes when the store holds no source at all: new ones come
  /// from other workers' lists too.
  static let idleRecheck: Double = 300

  func run() -> Int32 {
    let wake = DispatchSemaphore(value: 0)
    let control = SharedWatchControl()
    let signals = WatchSignals(
      onStop: {
        control.stop()
        wake.signal()
      },
      onReload: {
        control.requestReload()
        wake.signal()
      })
    var subscription = options.subscription
    subscription.onlyDue = true
    let clock = WatchCommand.clock()
    let subscribed = SubscribedPull(
      store: store, puller: puller, options: subscription, clock: clock)
    let quiet = options.verbosity == .quiet
    var registering = sources
    while !control.isStopping, writeFailure.withLock({ $0 }) == nil {
      if control.takeReload(), SourceInputs.canReread(options) {
        do {
          registering = try SourceInputs.gather(options)
        } catch {
          printError("feedpull: \(error.description); the list stays as it was\n")
        }
      }
      let holder = BatchHolder()
      control.setPass(holder)
      do {
        let result = try subscribed.runClaiming(
          registering: registering, slots: options.pull.maxConcurrentTransfers, into: output,
          onStart: { batch in holder.add(cancel: { batch.cancel() }) },
          outputFailed: { writeFailure.withLock { $0 } != nil },
          stopRequested: { control.isStopping })
        registering = []
        for failure in result.storeFailures.prefix(3) where !quiet {
          printError("feedpull: \(failure.message)\n")
        }
      } catch {
        // The database stayed away past the claim loop's own retries: wait, then try again.
        if !quiet { printError("feedpull: \(error.message)\n") }
        _ = wake.wait(timeout: .now() + 5)
        continue
      }
      control.setPass(nil)
      if control.isStopping { break }
      let seconds: Double
      do {
        if let next = try store.earliestNextCheck() {
          seconds = Double(max(0, next - clock()))
        } else {
          seconds = Self.idleRecheck
        }
      } catch {
        if !quiet { printError("feedpull: \(error.message)\n") }
        seconds = 5
      }
      // The one timer of a shared watch: until the next source can be claimed, or a signal.
      if seconds > 0 { _ = wake.wait(timeout: .now() + min(seconds, Self.idleRecheck)) }
    }
    withExtendedLifetime(signals) {}
    output.flush()
    output.finish()
    puller.syncShutdown()
    if let message = writeFailure.withLock({ $0 }) {
      printError("feedpull: \(message)\n")
      return 1
    }
    return 0
  }
}

/// What the signals ask of a shared watch, and the pass to cancel when they ask it to stop.
private final class SharedWatchControl: Sendable {
  private struct State {
    var stopping = false
    var reload = false
    var pass: BatchHolder?
  }

  private let state = TSanVisibleMutex(State())

  var isStopping: Bool { state.withLock { $0.stopping } }

  func stop() {
    let pass = state.withLock { state in
      state.stopping = true
      return state.pass
    }
    pass?.cancel()
  }

  func requestReload() { state.withLock { $0.reload = true } }

  /// True once after each SIGHUP.
  func takeReload() -> Bool {
    state.withLock { state in
      defer { state.reload = false }
      return state.reload
    }
  }

  /// The pass running now (nil between passes); a stop that comes first cancels it at once.
  func setPass(_ holder: BatchHolder?) {
    let stopping = state.withLock { state in
      state.pass = holder
      return state.stopping
    }
    if stopping { holder?.cancel() }
  }
}
