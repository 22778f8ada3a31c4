import Dispatch
import FeedPullSupport
import Testing

@testable import FeedPull

#if canImport(Glibc)
  import Glibc
#endif

/// The pool of local-source readers: every read runs once, in order, and a read that has run is
/// let go while others still wait (a pool kept busy for a whole run held every read until it
/// emptied); a reader with nothing to read waits for the next one a while, then ends.
@Suite struct LocalReaderPoolTests {
  final class Marker: Sendable {}

  @Test func readsRunOnceInOrder() {
    let pool = LocalReaderPool(maxWidth: 1)
    let done = DispatchGroup()
    let order = TSanVisibleMutex<[Int]>([])
    for index in 0..<500 {
      done.enter()
      pool.add {
        order.withLock { $0.append(index) }
        done.leave()
      }
    }
    done.wait()
    #expect(order.withLock { $0 } == Array(0..<500))
  }

  @Test func aReadThatRanIsLetGoWhileOthersWait() {
    let pool = LocalReaderPool(maxWidth: 1)
    weak var weakMarker: Marker?
    let thirdStarted = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    done.enter()
    do {
      let marker = Marker()
      weakMarker = marker
      pool.add { _ = marker }
    }
    pool.add {
      thirdStarted.signal()
      release.wait()
    }
    pool.add { done.leave() }
    thirdStarted.wait()
    // The first read ran; the pool is busy with the second and still holds the third.
    #expect(weakMarker == nil)
    release.signal()
    done.wait()
  }

  /// The kernel's number of the calling thread (`/proc/thread-self` names it: `PID/task/TID`),
  /// not reused as soon as a thread ends, unlike `pthread_self()`'s address.
  static func threadNumber() -> Int32 {
    var path = [CChar](repeating: 0, count: 64)
    let count = readlink("/proc/thread-self", &path, path.count - 1)
    guard count > 0 else { return -1 }
    let text = String(decoding: path[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return Int32(text.split(separator: "/").last ?? "") ?? -1
  }

  /// Runs one read on `pool` and waits for it; the thread it ran on.
  static func readOn(_ pool: LocalReaderPool) -> Int32 {
    let ran = DispatchSemaphore(value: 0)
    let thread = TSanVisibleMutex<Int32>(0)
    pool.add {
      thread.withLock { $0 = threadNumber() }
      ran.signal()
    }
    ran.wait()
    return thread.withLock { $0 }
  }

  /// Reads that come one at a time (a `--due` pass's due files spread through a long list)
  /// run on the reader already there, rather than on a thread started and ended for each. One
  /// reader wide: wider, a read added while the reader is still leaving the last one may start
  /// a second.
  @Test func readsOneAtATimeShareAThread() {
    let pool = LocalReaderPool(maxWidth: 1, linger: .seconds(60))
    let first = Self.readOn(pool)
    for _ in 0..<200 {
      #expect(Self.readOn(pool) == first)
    }
  }

  /// A reader with nothing to read for `linger` ends; a later read starts another.
  @Test func anIdleReaderEnds() {
    let pool = LocalReaderPool(maxWidth: 1, linger: .milliseconds(5))
    let first = Self.readOn(pool)
    let deadline = DispatchTime.now() + .seconds(30)
    while access("/proc/self/task/\(first)", F_OK) == 0, DispatchTime.now() < deadline {
      usleep(1000)
    }
    #expect(access("/proc/self/task/\(first)", F_OK) != 0)
    #expect(Self.readOn(pool) != first)
  }

  /// Reads added from many threads while readers come and go (a linger of a moment): each
  /// runs exactly once.
  @Test func readsAddedWhileReadersComeAndGoRunOnce() {
    let pool = LocalReaderPool(maxWidth: 2, linger: .microseconds(50))
    let count = TSanVisibleMutex<[Int]>(Array(repeating: 0, count: 4000))
    let done = DispatchGroup()
    DispatchQueue.concurrentPerform(iterations: 4) { adder in
      for step in 0..<1000 {
        let index = adder * 1000 + step
        done.enter()
        pool.add {
          count.withLock { $0[index] += 1 }
          done.leave()
        }
        if step % 50 == 0 { done.wait() }
      }
    }
    done.wait()
    #expect(count.withLock { $0 } == Array(repeating: 1, count: 4000))
  }
}
