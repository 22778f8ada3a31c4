import Dispatch
import FeedPull
import FeedPullSupport
import Foundation

/// A `FeedPuller` starting on a thread of its own while the command goes on: its worker thread
/// sets up curl (about 2 ms on the host measured in bench/README.md), which the state's opening
/// on the main thread then hides instead of adding to every run's start.
final class PullerStartup: Sendable {
  private let outcome = TSanVisibleMutex<Result<FeedPuller, WorkerStartError>?>(nil)
  private let done = DispatchSemaphore(value: 0)

  /// Starts a puller with `configuration`.
  init(_ configuration: FeedPuller.Configuration) {
    Thread.detachNewThread { [outcome, done] in
      let result: Result<FeedPuller, WorkerStartError>
      do throws(WorkerStartError) {
        result = .success(try FeedPuller(configuration: configuration))
      } catch {
        result = .failure(error)
      }
      outcome.withLock { $0 = result }
      done.signal()
    }
  }

  /// The started puller, once it is; throws why it could not start.
  func wait() throws(WorkerStartError) -> FeedPuller {
    done.wait()
    // Given back, so that a later `wait` (`abandon` after one) returns at once too.
    done.signal()
    switch outcome.withLock({ $0 }) {
    case .success(let puller): return puller
    case .failure(let error): throw error
    case nil: throw WorkerStartError(message: "the puller did not start")
    }
  }

  /// Waits for the start and stops the puller again: the command ends before pulling.
  func abandon() {
    (try? wait())?.syncShutdown()
  }
}
