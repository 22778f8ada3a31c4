import Foundation

/// Waits for events with a deadline instead of sleeping: a counter that threads raise and tests
/// wait on.
public final class EventLatch: @unchecked Sendable {
  // @unchecked: `count` is only touched with `condition` locked.
  private let condition = NSCondition()
  private var count = 0

  public init() {}

  /// Records one event and wakes the waiters.
  public func signal() {
    condition.lock()
    count += 1
    condition.broadcast()
    condition.unlock()
  }

  /// Events so far.
  public var value: Int {
    condition.lock()
    defer { condition.unlock() }
    return count
  }

  /// Waits until at least `target` events happened or `timeout` seconds passed; true when they did.
  @discardableResult
  public func wait(for target: Int = 1, timeout: Double) -> Bool {
    // Date(timeIntervalSinceNow: .infinity) traps in NSCondition.wait(until:): wait untimed.
    let deadline = timeout.isFinite ? Date(timeIntervalSinceNow: timeout) : nil
    condition.lock()
    defer { condition.unlock() }
    while count < target {
      if let deadline {
        if !condition.wait(until: deadline) { return count >= target }
      } else {
        condition.wait()
      }
    }
    return true
  }

  /// The same wait from async code, on a thread of its own: a blocking wait on one of Swift
  /// concurrency's few cooperative threads (two on this machine) can starve the very task that
  /// would signal.
  public func waitAsync(for target: Int = 1, timeout: Double) async -> Bool {
    await withCheckedContinuation { done in
      Thread.detachNewThread { done.resume(returning: self.wait(for: target, timeout: timeout)) }
    }
  }
}
