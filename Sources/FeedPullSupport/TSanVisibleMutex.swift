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
/// looked up `Mutex<Value>`'s metadata (some 500 instructions a call). The lock is a
/// `Mutex<Void>` beside the value rather than a `Mutex<Value>` around it, so that the code that
/// stays unspecialized (the class's allocation and deinit, and calls the compiler did not
/// specialize: some 16 a source on a subscription run) never asks the runtime for a
/// `Mutex<Value>`'s metadata: that look-up was 3% of the instructions of an unchanged pass.
/// The value is only touched with the lock held (`@unchecked Sendable` rests on that, as
/// `Mutex`'s own conformance does), and without the exclusivity check a class's `var` costs.
package final class TSanVisibleMutex<Value: ~Copyable>: @unchecked Sendable {
  @usableFromInline let lock = Mutex<Void>(())
  @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var value: Value

  @inlinable package init(_ value: consuming sending Value) {
    self.value = value
  }

  @inlinable package func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    let address = Unmanaged.passUnretained(self).toOpaque()
    return try lock.withLock { (_: inout sending Void) throws(E) -> sending Result in
      fp_tsan_acquire(address)
      defer { fp_tsan_release(address) }
      return try body(&value)
    }
  }
}
