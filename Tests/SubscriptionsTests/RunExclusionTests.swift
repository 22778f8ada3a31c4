import Dispatch
import Foundation
import Testing

@testable import Subscriptions

/// The run's one order: steps on its queue and steps the worker's thread runs in place never
/// overlap, and the worker's thread never waits for a step on the queue.
@Suite struct RunExclusionTests {
  @Test func aStepRunsHereWhenNothingElseRuns() {
    let exclusion = RunExclusion(label: "test")
    #expect(!exclusion.isRunningHere)
    var sawHere = false
    let ran = exclusion.runHereIfFree { sawHere = exclusion.isRunningHere }
    #expect(ran)
    #expect(sawHere)
    #expect(!exclusion.isRunningHere)
  }

  @Test func theWorkersThreadDoesNotWaitForAStepOnTheQueue() {
    let exclusion = RunExclusion(label: "test")
    let inside = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    exclusion.async {
      inside.signal()
      release.wait()
    }
    exclusion.async { finished.signal() }
    #expect(inside.wait(timeout: .now() + 10) == .success)
    var ranHere = false
    let ran = exclusion.runHereIfFree { ranHere = true }
    #expect(!ran)
    #expect(!ranHere)
    release.signal()
    #expect(finished.wait(timeout: .now() + 10) == .success)
    // The last step signalled from inside the lock: once the queue has run past it (a block
    // after it, which holds no lock), the lock is free again.
    exclusion.queue.sync {}
    #expect(exclusion.runHereIfFree {})
  }

  @Test func aStepOnTheQueueWaitsForOneRunningHere() {
    let exclusion = RunExclusion(label: "test")
    let order = OrderLog()
    let queued = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let ran = exclusion.runHereIfFree {
      order.append("here begins")
      exclusion.async {
        order.append("queue")
        finished.signal()
      }
      queued.signal()
      // The queue's step has been handed to a pool thread and must wait for this one: nothing
      // of it may appear before "here ends", however long this step takes.
      for _ in 0..<1_000 { _ = exclusion.isRunningHere }
      order.append("here ends")
    }
    #expect(ran)
    #expect(queued.wait(timeout: .now() + 10) == .success)
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(order.entries == ["here begins", "here ends", "queue"])
  }

  @Test func anotherThreadIsNotRunningHere() {
    let exclusion = RunExclusion(label: "test")
    let checked = DispatchSemaphore(value: 0)
    let result = OrderLog()
    _ = exclusion.runHereIfFree {
      Thread.detachNewThread {
        result.append(exclusion.isRunningHere ? "here" : "elsewhere")
        checked.signal()
      }
      #expect(checked.wait(timeout: .now() + 10) == .success)
    }
    #expect(result.entries == ["elsewhere"])
  }
}

/// What happened, in order, from any thread.
private final class OrderLog: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []

  func append(_ entry: String) {
    lock.lock()
    items.append(entry)
    lock.unlock()
  }

  var entries: [String] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }
}
