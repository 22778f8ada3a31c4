import FeedPullSupport
import Testing

/// The queue under the admission's host queues, the scheduler's claimed sources and a run's
/// events: first in, first out, and what was taken let go even when it never runs dry.
@Suite struct FirstInQueueTests {
  @Test func takesInOrderAndPutsBackAtTheFront() {
    var queue = FirstInQueue([1, 2, 3])
    #expect(queue.popFirst() == 1)
    queue.putBack(9)
    queue.append(4)
    var taken: [Int] = []
    while let next = queue.popFirst() { taken.append(next) }
    #expect(taken == [9, 2, 3, 4])
    #expect(queue.isEmpty && queue.stored == 0)
    queue.putBack(5)
    #expect(queue.first == 5 && queue.count == 1)
  }

  @Test func refilledBeforeItEmptiesItKeepsAboutWhatWaits() {
    var queue = FirstInQueue<Int>()
    var next = 0
    var mostStored = 0
    for _ in 0..<10_000 {
      // Eight wait at the least: taken one at a time, refilled by eight once half are gone.
      while queue.count < 16 {
        queue.append(next)
        next += 1
      }
      for _ in 0..<8 { _ = queue.popFirst() }
      mostStored = max(mostStored, queue.stored)
    }
    #expect(next == 80_008)
    #expect(mostStored <= 2 * 16 + 16, "stored at most: \(mostStored)")
  }

  @Test func removesAWaitingElementAndSaysItsPlace() {
    var queue = FirstInQueue(["a", "b", "c"])
    _ = queue.popFirst()
    #expect(queue.remove(where: { $0 == "c" }) == 1)
    #expect(queue.remove(where: { $0 == "a" }) == nil)
    #expect(queue.remove(where: { $0 == "b" }) == 0)
    #expect(queue.isEmpty && queue.stored == 0)
  }
}
