import FeedPullSupport
import Foundation
import Synchronization

/// What other threads ask of the worker thread.
enum WorkerCommand {
  case add(TransferID, TransferRequest, DelegateHandoff)
  case cancel(TransferID)
  case resume(TransferID)
  case stop
}

/// Carries a delegate from the thread that called `add` to the worker thread.
///
/// `@unchecked` is sound because `add` takes the delegate as `sending`: the caller gave up its
/// region, so from then on only the worker thread touches the object.
struct DelegateHandoff: @unchecked Sendable {
  let delegate: any TransferDelegate
}

/// The one place where other threads meet the worker thread: a `Mutex`-guarded list of commands
/// plus a run-loop wake-up, coalesced so that a burst of calls costs one drain.
final class WorkerInbox: Sendable {
  private struct State {
    var commands: [WorkerCommand] = []
    var drainPosted = false
    /// Cancelled from some thread and not yet settled by the worker: the write callback checks
    /// this before every delegate call, so a cancel is honoured at the next chunk.
    var cancelRequests: Set<TransferID> = []
    var doorbell: RunLoopDoorbell?
    var drain: (@Sendable () -> Void)?
    var stopping = false
  }

  private let state = TSanVisibleMutex(State())
  /// Transfers added and not yet ended, for `waitUntilIdle`.
  private let outstanding = NSCondition()
  nonisolated(unsafe) private var outstandingCount = 0  // guarded by `outstanding`

  /// Connects the inbox to the worker thread's run loop; `drain` runs there for each wake-up.
  func attach(doorbell: RunLoopDoorbell, drain: @escaping @Sendable () -> Void) {
    state.withLock { state in
      state.doorbell = doorbell
      state.drain = drain
    }
  }

  /// Queues a command and wakes the worker; false once `stop` was submitted (the command is then
  /// dropped).
  @discardableResult
  func submit(_ command: WorkerCommand) -> Bool {
    typealias Wake = (doorbell: RunLoopDoorbell, drain: @Sendable () -> Void)
    let (accepted, wake): (Bool, Wake?) = state.withLock { state in
      guard !state.stopping else { return (false, nil) }
      switch command {
      case .cancel(let id): state.cancelRequests.insert(id)
      case .stop: state.stopping = true
      case .add, .resume: break
      }
      state.commands.append(command)
      guard !state.drainPosted, let doorbell = state.doorbell, let drain = state.drain else {
        return (true, nil)
      }
      state.drainPosted = true
      return (true, (doorbell, drain))
    }
    if let wake { wake.doorbell.post(wake.drain) }
    return accepted
  }

  /// Takes every queued command, in order. Worker thread.
  func takeCommands() -> [WorkerCommand] {
    state.withLock { state in
      state.drainPosted = false
      defer { state.commands = [] }
      return state.commands
    }
  }

  func isCancelRequested(_ id: TransferID) -> Bool {
    state.withLock { $0.cancelRequests.contains(id) }
  }

  /// Forgets a cancel request once its transfer has ended.
  func settleCancel(_ id: TransferID) {
    _ = state.withLock { $0.cancelRequests.remove(id) }
  }

  func transferAdded() {
    outstanding.lock()
    outstandingCount += 1
    outstanding.unlock()
  }

  func transferEnded() {
    outstanding.lock()
    outstandingCount -= 1
    if outstandingCount == 0 { outstanding.broadcast() }
    outstanding.unlock()
  }

  /// Blocks until no transfer is queued or running, or until `deadline`; true when idle.
  func waitUntilIdle(deadline: Date) -> Bool {
    outstanding.lock()
    defer { outstanding.unlock() }
    while outstandingCount > 0 {
      if !outstanding.wait(until: deadline) { return outstandingCount == 0 }
    }
    return true
  }
}
