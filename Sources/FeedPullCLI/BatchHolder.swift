import FeedPullSupport

/// How to cancel the run (its pull, or each claim's batch against a shared store), which a signal
/// or a failed write may ask for before the run has begun.
final class BatchHolder: Sendable {
  private let state = TSanVisibleMutex<(cancels: [@Sendable () -> Void], cancelled: Bool)>(
    ([], false))

  func add(cancel: @escaping @Sendable () -> Void) {
    let cancelled = state.withLock { state in
      state.cancels.append(cancel)
      return state.cancelled
    }
    if cancelled { cancel() }
  }

  /// True once the run was told to stop (a signal, a failed write).
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  func cancel() {
    let cancels = state.withLock { state in
      state.cancelled = true
      return state.cancels
    }
    for cancel in cancels { cancel() }
  }
}
