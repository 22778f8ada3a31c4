import Dispatch
import FeedPullSupport
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The one order of a subscription run's work: every step on the run's serial queue holds this
/// lock, and the connection worker's thread may carry out a short step in the same order when no
/// step holds it, without a hop to the queue (a 304's end: handed to the queue, it woke a pool
/// thread, which then woke the worker for the next start). The worker never waits for it: when a
/// step holds it (a group commit, a claim), the worker's step goes to the queue as before.
///
/// What the worker runs here must itself never wait: no store call (a SQLite file another process
/// has locked, a PostgreSQL round trip). `SubscriptionRun` hands those on to the queue.
final class RunExclusion: Sendable {
  /// The run's serial queue.
  let queue: DispatchQueue
  private let lock = TSanVisibleMutex(())
  /// The thread running a step outside the queue (`runHereIfFree`), 0 when none.
  private let hereThread = Atomic<UInt>(0)

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// Runs `work` on the queue, in order, holding the lock.
  func async(_ work: @escaping @Sendable () -> Void) {
    queue.async { self.lock.withLock { _ in work() } }
  }

  /// Runs `work` on the queue after `delay`, holding the lock.
  func asyncAfter(_ delay: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void) {
    queue.asyncAfter(deadline: .now() + delay) { self.lock.withLock { _ in work() } }
  }

  /// Runs `work` holding the lock; for a block already on the queue (a timer's handler).
  func exclusively(_ work: () -> Void) {
    lock.withLock { _ in work() }
  }

  /// Runs `work` here, on the calling thread, if no step holds the lock now; false, without
  /// running it or waiting, if one does.
  func runHereIfFree(_ work: () -> Void) -> Bool {
    let ran: Void? = lock.withLockIfAvailable { _ in
      hereThread.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .relaxed)
      defer { hereThread.store(0, ordering: .relaxed) }
      work()
    }
    return ran != nil
  }

  /// Whether the calling thread is running a step through `runHereIfFree` now.
  var isRunningHere: Bool {
    hereThread.load(ordering: .relaxed) == UInt(bitPattern: Int(bitPattern: pthread_self()))
  }
}
