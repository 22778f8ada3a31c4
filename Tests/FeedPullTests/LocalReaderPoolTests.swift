import Dispatch
import FeedPullSupport
import Testing

@testable import FeedPull

/// The pool of local-source readers: every read runs once, in order, and a read that has run is
/// let go while others still wait (a pool kept busy for a whole run held every read until it
/// emptied).
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
}
