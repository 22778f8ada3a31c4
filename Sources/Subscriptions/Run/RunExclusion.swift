import Dispatch
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
  private let lock = TryLock()
  /// The thread running a step outside the queue (`runHereIfFree`), 0 when none.
  private let hereThread = Atomic<UInt>(0)

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// Runs `work` on the queue, in order, holding the lock.
  func async(_ work: @escaping @Sendable () -> Void) {
    queue.async { self.lock.withLock(work) }
  }

  /// Runs `work` on the queue after `delay`, holding the lock.
  func asyncAfter(_ delay: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void) {
    queue.asyncAfter(deadline: .now() + delay) { self.lock.withLock(work) }
  }

  /// Runs `work` holding the lock; for a block already on the queue (a timer's handler).
  func exclusively(_ work: () -> Void) {
    lock.withLock(work)
  }

  /// Runs `work` here, on the calling thread, if no step holds the lock now; false, without
  /// running it or waiting, if one does.
  func runHereIfFree(_ work: () -> Void) -> Bool {
    guard lock.tryLock() else { return false }
    defer { lock.unlock() }
    hereThread.store(Self.currentThread, ordering: .relaxed)
    defer { hereThread.store(0, ordering: .relaxed) }
    work()
    return true
  }

  /// Whether the calling thread is running a step through `runHereIfFree` now.
  var isRunningHere: Bool {
    hereThread.load(ordering: .relaxed) == Self.currentThread
  }

  private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}

/// A pthread mutex, for the one lock that must be tried without waiting: ThreadSanitizer sees a
/// pthread mutex's hand-overs (and a failed try) as they are, where a `Mutex`'s try is outside
/// what `TSanVisibleMutex` announces.
private final class TryLock: @unchecked Sendable {
  // @unchecked: the mutex is only touched through pthread's calls, which are thread-safe.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func withLock(_ work: () -> Void) {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    work()
  }

  func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

  func unlock() { pthread_mutex_unlock(mutex) }
}
