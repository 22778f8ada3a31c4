import CFeedPullShims
import Synchronization

/// A `Mutex` whose critical sections ThreadSanitizer can see as ordered: the one lock of the
/// project (worker inbox, pipeline, writers, the command's status line, and the test helpers).
///
/// Measured here (Swift 6.3.1, Linux): four threads contending one `Synchronization.Mutex` make
/// TSan report "Swift access race" between two `withLock` bodies, because a contended lock is
/// handed over by the kernel (PI futex) without a user-space atomic that TSan observes; the same
/// program with a pthread-based lock is clean. Announcing acquire/release on the lock's address
/// keeps `--sanitize=thread` runs meaningful. Outside TSan builds the annotations are two calls
/// to empty functions. `package`: every target of this package shares it; it is not API.
///
/// Inlinable, so that each use is specialized for its value: unspecialized, every `withLock`
/// looked up `Mutex<Value>`'s metadata (some 500 instructions a call).
package final class TSanVisibleMutex<Value: ~Copyable>: Sendable {
  @usableFromInline let mutex: Mutex<Value>

  @inlinable package init(_ value: consuming sending Value) {
    mutex = Mutex(value)
  }

  @inlinable package func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    let address = Unmanaged.passUnretained(self).toOpaque()
    return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      fp_tsan_acquire(address)
      defer { fp_tsan_release(address) }
      return try body(&value)
    }
  }
}
