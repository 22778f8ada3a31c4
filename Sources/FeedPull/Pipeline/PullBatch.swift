import FeedPullSupport
import HTTPWorker
import Synchronization

/// The sources of one `FeedPuller.start` call, so that they can be cancelled together: each
/// source not yet ended then ends with `cancelled` (items already written stay written).
public final class PullBatch: Sendable {
  private let state = TSanVisibleMutex<(cancelled: Bool, transfers: [TransferID])>((false, []))
  /// The worker the batch's transfers run on (held, not a closure over it: one allocation
  /// fewer for each source a subscription run starts).
  private let worker: ConnectionWorker

  init(worker: ConnectionWorker) {
    self.worker = worker
  }

  /// Cancels every source of the batch. Safe from any thread, and more than once.
  public func cancel() {
    let transfers = state.withLock { state in
      state.cancelled = true
      return state.transfers
    }
    transfers.forEach(worker.cancel)
  }

  /// True once `cancel()` was called.
  public var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Remembers a transfer of the batch; one added after `cancel` is cancelled at once.
  func register(_ id: TransferID) {
    let cancelled = state.withLock { state in
      state.transfers.append(id)
      return state.cancelled
    }
    if cancelled { worker.cancel(id) }
  }
}
