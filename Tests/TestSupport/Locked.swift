import Foundation

/// A value behind a pthread-based lock, for test helpers shared between threads.
///
/// Not `Synchronization.Mutex`: under contention that Mutex hands the lock over inside the kernel
/// (PI futex), where ThreadSanitizer cannot see it, and `--sanitize=thread` runs then report
/// races between critical sections. NSLock is a pthread mutex, which TSan understands.
public final class Locked<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched with `lock` held.
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) {
    self.value = value
  }

  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
