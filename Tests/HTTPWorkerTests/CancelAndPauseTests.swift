import FeedPullSupport
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HTTPWorker

/// Cancellation and pausing, from the worker thread and from others.
@Suite struct CancelAndPauseTests {
  /// A body that drips for about 4 s: 200 chunks of 16 bytes, 20 ms apart.
  private static let drip = HTTPScript(
    framing: .chunked,
    steps: (0..<200).flatMap { index -> [HTTPScript.Step] in
      [.send(Array(String(format: "chunk %08d\n", index).utf8)), .wait(0.02)]
    })

  @Test func cancelFromAnotherThreadMidBodyEndsOnceWithCancelled() throws {
    let server = try LoopbackHTTPServer(routes: ["/drip": Self.drip])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    let log = TransferLog()
    let cancelReturned = Atomic<Bool>(false)
    let chunksStartedAfterCancel = Atomic<Int>(0)
    let id = worker.add(
      TransferRequest(server, "/drip"),
      delegate: LoggingDelegate(
        log,
        onChunk: { _ in
          if cancelReturned.load(ordering: .sequentiallyConsistent) {
            chunksStartedAfterCancel.add(1, ordering: .sequentiallyConsistent)
          }
          return .consumed
        }))
    #expect(log.chunks.wait(for: 3, timeout: 10))
    let cancelling = Thread {
      worker.cancel(id)
      cancelReturned.store(true, ordering: .sequentiallyConsistent)
    }
    cancelling.start()
    #expect(log.ended.wait(timeout: 10))
    worker.stop()  // joins the worker thread: nothing can be delivered after this
    #expect(log.endCount == 1)
    #expect(log.error?.kind == .cancelled)
    #expect(log.isWellOrdered)
    // The rule (docs/worker.md): a chunk whose delivery had begun when cancel returned may
    // complete; none begins later.
    #expect(chunksStartedAfterCancel.load(ordering: .sequentiallyConsistent) <= 1)
    #expect(log.body.count < 200 * 15)
  }

  @Test func cancelFromTheDelegateStopsAtOnce() throws {
    let server = try LoopbackHTTPServer(routes: ["/drip": Self.drip])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    defer { worker.stop() }
    let log = TransferLog()
    let ownID = TSanVisibleMutex<TransferID?>(nil)
    let id = worker.add(
      TransferRequest(server, "/drip"),
      delegate: LoggingDelegate(
        log,
        onChunk: { index in
          if index == 2, let id = ownID.withLock({ $0 }) { worker.cancel(id) }
          return .consumed
        }))
    ownID.withLock { $0 = id }
    #expect(log.ended.wait(timeout: 10))
    #expect(log.error?.kind == .cancelled)
    #expect(log.body.count == 3 * 15)
  }

  @Test func cancelWhileQueuedEndsWithCancelledAndNeverConnects() throws {
    let server = try LoopbackHTTPServer(routes: ["/silent": .silent, "/feed": .ok("<rss/>")])
    var configuration = ConnectionWorker.Configuration.forLoopbackTests
    configuration.maxInFlight = 1
    let worker = try ConnectionWorker(configuration: configuration)
    defer { worker.stop() }
    let blocker = TransferLog()
    let blockerID = worker.add(
      TransferRequest(server, "/silent"), delegate: LoggingDelegate(blocker))
    #expect(server.requestsReceived.wait(timeout: 10))
    let queued = TransferLog()
    let queuedID = worker.add(TransferRequest(server, "/feed"), delegate: LoggingDelegate(queued))
    worker.cancel(queuedID)
    #expect(queued.ended.wait(timeout: 10))
    #expect(queued.all == [.fail(RunningTransfer.cancelled, TransferSummary())])
    worker.cancel(blockerID)
    #expect(blocker.ended.wait(timeout: 10))
    #expect(blocker.error?.kind == .cancelled)
    #expect(server.requests.map(\.target) == ["/silent"])
  }

  @Test func cancelAfterTheEndChangesNothing() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>")])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    let log = TransferLog()
    let id = worker.add(TransferRequest(server, "/feed"), delegate: LoggingDelegate(log))
    #expect(log.ended.wait(timeout: 10))
    worker.cancel(id)
    worker.stop()
    #expect(log.endCount == 1)
    #expect(log.error == nil)
  }

  /// Pauses on several deliveries of a body that is already fully sent (so it waits in curl's
  /// and the kernel's buffers), resumes each time from another thread, and expects every byte
  /// exactly once: the unpause stalls of curl's socket API would show up here as a timeout.
  @Test(arguments: [false, true])
  func pauseAndResumeRedeliverTheSameBytes(compressed: Bool) throws {
    let plain = (0..<40_000).map { String(format: "line %06d\n", $0) }.joined()
    let body = compressed ? try httpFixture("feed.xml.gz") : Array(plain.utf8)
    let expected = compressed ? try httpFixture("feed.xml") : Array(plain.utf8)
    let server = try LoopbackHTTPServer(routes: [
      "/big": HTTPScript(
        headers: compressed ? [("Content-Encoding", "gzip")] : [],
        framing: .chunked,
        steps: stride(from: 0, to: body.count, by: 7000).map {
          .send(Array(body[$0..<min($0 + 7000, body.count)]))
        } + [.mark("sent")])
    ])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    let log = TransferLog()
    let pauses = EventLatch()
    let ownID = TSanVisibleMutex<TransferID?>(nil)
    let bytesAtPause = TSanVisibleMutex<[Int]>([])
    let id = worker.add(
      TransferRequest(server, "/big"),
      delegate: LoggingDelegate(
        log,
        onChunk: { index in
          guard index % 3 == 0, index < 60, let id = ownID.withLock({ $0 }) else {
            return .consumed
          }
          pauses.signal()
          let delivered = log.body.count
          bytesAtPause.withLock { $0.append(delivered) }
          // Resume from another thread, after the worker has gone back to its run loop.
          Thread { worker.resume(id) }.start()
          return .pause
        }))
    ownID.withLock { $0 = id }
    #expect(log.ended.wait(timeout: 10))
    worker.stop()
    #expect(log.error == nil)
    #expect(log.body == expected)
    #expect(log.summary?.bodyBytes == Int64(expected.count))
    #expect(pauses.value >= 1)
    // Each redelivery after a pause starts where the paused chunk did: nothing was consumed
    // while paused, nothing skipped.
    #expect(bytesAtPause.withLock { $0 } == bytesAtPause.withLock { $0 }.sorted())
    #expect(log.isWellOrdered)
    #expect(worker.audit.counts.offThread == 0)
  }

  /// The classic stall after unpause (curl issues #2393, #4966, #8360, #6631): the transfer is
  /// paused, the rest of the body arrives meanwhile and waits in the socket buffer with no new
  /// socket event to come, then the transfer is resumed. Everything must still arrive. 40 KB:
  /// more than curl reads at once (16 KiB), less than a loopback socket's default receive
  /// buffer (128 KiB), so the server's last send completes while the client is paused. With
  /// 200 KB the buffers held it only once autotuning had grown them; on a loaded machine the
  /// send waited for the resume, and the `sent` mark came after the transfer's end.
  @Test func resumeAfterTheWholeBodyIsBufferedDoesNotStall() throws {
    let body = Array((0..<4_000).map { String(format: "row %05d\n", $0) }.joined().utf8)
    let server = try LoopbackHTTPServer(routes: [
      "/buffered": HTTPScript(
        steps: [
          .send(Array(body[..<1000])), .wait(0.05), .send(Array(body[1000...])), .mark("sent"),
        ])
    ])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    defer { worker.stop() }
    let log = TransferLog()
    let ownID = TSanVisibleMutex<TransferID?>(nil)
    let marks = server.marksPassed
    let id = worker.add(
      TransferRequest(server, "/buffered"),
      delegate: LoggingDelegate(
        log,
        onChunk: { index in
          guard index == 0, let id = ownID.withLock({ $0 }) else { return .consumed }
          Thread {
            marks.wait(timeout: 10)
            worker.resume(id)
          }.start()
          return .pause
        }))
    ownID.withLock { $0 = id }
    #expect(log.ended.wait(timeout: 10))
    #expect(server.mark("sent") != nil)
    #expect(log.error == nil)
    #expect(log.body == body)
  }

  /// A paused transfer still counts against its whole-transfer timeout.
  @Test func pausedTransferTimesOut() throws {
    let server = try LoopbackHTTPServer(routes: ["/drip": Self.drip])
    var request = TransferRequest(server, "/drip")
    request.timeout = .seconds(1)
    let log = try runTransfer(request) { LoggingDelegate($0, onChunk: { _ in .pause }) }
    #expect(log.error?.kind == .timeout)
    #expect(log.body.isEmpty)
  }
}
