import Foundation
import Synchronization

/// Checks that every libcurl call runs on the worker thread that owns the handles.
///
/// libcurl handles are not thread-safe: a multi handle and its easy handles must be used from one
/// thread at a time, and this worker's design gives them to exactly one thread for their whole
/// life. Debug builds stop at the first call from another thread; every build counts calls, so a
/// test can prove the rule held for a whole run (swift-nio asserts its event loop the same way).
final class CurlThreadAudit: Sendable {
  private let owner: pthread_t
  private let calls = Atomic<Int>(0)
  private let callsOffThread = Atomic<Int>(0)

  /// An audit owned by the calling thread.
  init() {
    owner = pthread_self()
  }

  /// The owning thread, as a number (a `pthread_t`), for tests that check where code ran.
  var ownerThreadID: UInt { UInt(owner) }

  /// True on the owning thread.
  var isOwnerThread: Bool { pthread_equal(owner, pthread_self()) != 0 }

  /// Records one curl call; stops a debug build when it comes from the wrong thread.
  func check() {
    calls.add(1, ordering: .relaxed)
    if !isOwnerThread {
      callsOffThread.add(1, ordering: .relaxed)
      assertionFailure("libcurl called off the worker thread")
    }
  }

  /// Curl calls made so far, and how many of them came from another thread.
  var counts: (total: Int, offThread: Int) {
    (calls.load(ordering: .relaxed), callsOffThread.load(ordering: .relaxed))
  }

  /// CPU time the owning thread has used, in seconds (nil if the clock is unavailable).
  var ownerCPUSeconds: Double? {
    var clock = clockid_t()
    guard pthread_getcpuclockid(owner, &clock) == 0 else { return nil }
    var now = timespec()
    guard clock_gettime(clock, &now) == 0 else { return nil }
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}
