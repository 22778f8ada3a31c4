import CFeedPullShims
import Dispatch
import Foundation
import Testing

@testable import HTTPWorker

/// The run loop waits on an epoll set itself (`RunLoopPortWatch`), as the worker's loop waits on
/// curl's sockets: what the worker's drain relies on is that the loop reports the set once per
/// new readiness, on its own thread, and again after a drain emptied it.
@Suite struct RunLoopPortWatchTests {
  @Test func theLoopReportsTheSetEachTimeSomethingNewIsReady() throws {
    let pipe = Pipe()
    let readEnd = pipe.fileHandleForReading.fileDescriptor
    let epollFD = fp_epoll_create()
    try #require(epollFD >= 0)
    defer { close(epollFD) }
    try #require(fp_epoll_ctl(epollFD, Int32(EPOLL_CTL_ADD), readEnd, EPOLLIN.rawValue) == 0)

    let reports = DispatchSemaphore(value: 0)
    let ready = DispatchSemaphore(value: 0)
    let stopped = DispatchSemaphore(value: 0)
    let seen = SeenLog()
    nonisolated(unsafe) var doorbell: RunLoopDoorbell?
    let thread = Thread {
      let loopThread = pthread_self()
      let watch = RunLoopPortWatch(fd: epollFD) {
        // A drain as the worker's: everything ready is taken, so the set is empty again.
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(readEnd, &bytes, bytes.count)
        var fd: Int32 = 0
        var events: UInt32 = 0
        seen.append(
          onThisThread: pthread_equal(loopThread, pthread_self()) != 0, bytes: max(0, count),
          stillReady: fp_epoll_wait(epollFD, &fd, &events, 1, 0))
        reports.signal()
      }
      doorbell = RunLoopDoorbell()
      ready.signal()
      while !seen.stopAsked {
        _ = RunLoop.current.run(mode: .default, before: .distantFuture)
      }
      watch.invalidate()
      stopped.signal()
    }
    thread.start()
    #expect(ready.wait(timeout: .now() + 10) == .success)

    let writer = pipe.fileHandleForWriting
    writer.write(Data([1, 2, 3]))
    #expect(reports.wait(timeout: .now() + 10) == .success)
    writer.write(Data([4]))
    #expect(reports.wait(timeout: .now() + 10) == .success)
    // Nothing new: no report.
    #expect(reports.wait(timeout: .now() + 0.2) == .timedOut)

    seen.askStop()
    doorbell?.stopLoop()
    #expect(stopped.wait(timeout: .now() + 10) == .success)
    #expect(seen.entries.map(\.bytes) == [3, 1])
    #expect(seen.entries.map(\.onThisThread) == [true, true])
    #expect(seen.entries.map(\.stillReady) == [0, 0])
  }
}

/// The watch's reports, from the loop's thread.
private final class SeenLog: @unchecked Sendable {
  struct Entry {
    var onThisThread: Bool
    var bytes: Int
    var stillReady: Int32
  }

  private let lock = NSLock()
  private var items: [Entry] = []
  private var stop = false

  func append(onThisThread: Bool, bytes: Int, stillReady: Int32) {
    lock.lock()
    items.append(Entry(onThisThread: onThisThread, bytes: bytes, stillReady: stillReady))
    lock.unlock()
  }

  var entries: [Entry] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }

  func askStop() {
    lock.lock()
    stop = true
    lock.unlock()
  }

  var stopAsked: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stop
  }
}
