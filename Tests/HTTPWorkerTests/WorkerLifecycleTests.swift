import FeedPullSupport
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HTTPWorker

/// Many transfers, the queue's limits, stopping, the one-thread rule and idle cost.
@Suite struct WorkerLifecycleTests {
  /// Counts transfers between their response and their end, per host, on the worker thread.
  final class InFlightGauge: Sendable {
    private let state = TSanVisibleMutex<
      (current: [String: Int], peak: [String: Int], total: Int, peakTotal: Int)
    >(
      ([:], [:], 0, 0))

    func open(_ host: String) {
      state.withLock { state in
        state.current[host, default: 0] += 1
        state.peak[host] = max(state.peak[host] ?? 0, state.current[host] ?? 0)
        state.total += 1
        state.peakTotal = max(state.peakTotal, state.total)
      }
    }

    func close(_ host: String) {
      state.withLock { state in
        state.current[host, default: 0] -= 1
        state.total -= 1
      }
    }

    var peakTotal: Int { state.withLock { $0.peakTotal } }
    func peak(_ host: String) -> Int { state.withLock { $0.peak[host] ?? 0 } }
  }

  /// A delegate that feeds the gauge and the log.
  final class GaugedDelegate: TransferDelegate {
    let inner: LoggingDelegate
    let gauge: InFlightGauge
    let host: String
    var opened = false

    init(_ log: TransferLog, gauge: InFlightGauge, host: String) {
      inner = LoggingDelegate(log)
      self.gauge = gauge
      self.host = host
    }

    func transfer(_ id: TransferID, didReceive response: TransferResponse) -> ResponseDisposition {
      opened = true
      gauge.open(host)
      return inner.transfer(id, didReceive: response)
    }

    func transfer(_ id: TransferID, didReceive chunk: UnsafeRawBufferPointer) -> ChunkDisposition {
      inner.transfer(id, didReceive: chunk)
    }

    func transfer(_ id: TransferID, didFinish summary: TransferSummary) {
      if opened { gauge.close(host) }
      inner.transfer(id, didFinish: summary)
    }

    func transfer(_ id: TransferID, didFail error: TransferError, summary: TransferSummary) {
      if opened { gauge.close(host) }
      inner.transfer(id, didFail: error, summary: summary)
    }
  }

  @Test func twoHundredTransfersAtSixteenInFlightEachEndExactlyOnce() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": HTTPScript(
        framing: .chunked,
        steps: [.send(Array("<rss>".utf8)), .wait(0.01), .send(Array("</rss>".utf8))])
    ])
    var configuration = ConnectionWorker.Configuration.forLoopbackTests
    configuration.maxInFlight = 16
    configuration.maxPerHost = 16
    let worker = try ConnectionWorker(configuration: configuration)
    let gauge = InFlightGauge()
    let logs = (0..<200).map { _ in TransferLog() }
    let adders = (0..<4).map { part in
      Thread {
        for index in stride(from: part, to: 200, by: 4) {
          worker.add(
            TransferRequest(url: server.url("/feed?n=\(index)")),
            delegate: GaugedDelegate(logs[index], gauge: gauge, host: "a"))
        }
      }
    }
    for adder in adders { adder.start() }
    #expect(logs.allSatisfy { $0.ended.wait(timeout: 30) })
    #expect(worker.waitUntilIdle(timeout: 5))
    worker.stop()
    for (index, log) in logs.enumerated()
    where log.endCount != 1 || !log.isWellOrdered || log.error != nil
      || log.body != Array("<rss></rss>".utf8)
    {
      Issue.record("transfer \(index): \(log.all)")
    }
    #expect(gauge.peakTotal <= 16)
    #expect(server.requests.count == 200)
    // Keep-alive: connections are reused rather than opened per transfer.
    #expect(server.connectionCount <= 32)
    print("200 transfers: \(server.connectionCount) connections, peak in flight \(gauge.peakTotal)")
    #expect(worker.audit.counts.offThread == 0)
  }

  @Test func perHostLimitHoldsWhileOtherHostsProceed() throws {
    let slow = HTTPScript(steps: [.wait(0.05), .send(Array("<rss/>".utf8))])
    let first = try LoopbackHTTPServer(routes: ["/feed": slow])
    let second = try LoopbackHTTPServer(routes: ["/feed": slow])
    var configuration = ConnectionWorker.Configuration.forLoopbackTests
    configuration.maxInFlight = 6
    configuration.maxPerHost = 2
    let worker = try ConnectionWorker(configuration: configuration)
    defer { worker.stop() }
    let gauge = InFlightGauge()
    var logs: [TransferLog] = []
    for index in 0..<20 {
      let log = TransferLog()
      logs.append(log)
      let server = index < 10 ? first : second
      worker.add(
        TransferRequest(server, "/feed", as: index < 10 ? "first.localhost" : "second.localhost"),
        delegate: GaugedDelegate(log, gauge: gauge, host: index < 10 ? "first" : "second"))
    }
    #expect(worker.waitUntilIdle(timeout: 30))
    #expect(logs.allSatisfy { $0.endCount == 1 && $0.error == nil })
    #expect(gauge.peak("first") <= 2)
    #expect(gauge.peak("second") <= 2)
    #expect(gauge.peakTotal <= 4)
    #expect(first.peakConcurrentResponses <= 2)
  }

  /// The cap is per site, not global: with both of one site's slots held by stalled transfers,
  /// another site's transfer still runs to its end (no timing involved: the first site's
  /// transfers never end on their own).
  @Test func aFullSiteDoesNotHoldBackAnother() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/stall": HTTPScript(framing: .chunked, steps: [.send(Array("<rss>".utf8)), .stallForever]),
      "/feed": .ok("<rss/>"),
    ])
    var configuration = ConnectionWorker.Configuration.forLoopbackTests
    configuration.maxInFlight = 6
    configuration.maxPerHost = 2
    let worker = try ConnectionWorker(configuration: configuration)
    defer { worker.stop() }
    let stalled = (0..<2).map { _ in TransferLog() }
    for log in stalled {
      worker.add(
        TransferRequest(server, "/stall", as: "first.localhost"), delegate: LoggingDelegate(log))
    }
    #expect(stalled.allSatisfy { $0.chunks.wait(timeout: 10) })
    let other = TransferLog()
    worker.add(
      TransferRequest(server, "/feed", as: "second.localhost"), delegate: LoggingDelegate(other))
    #expect(other.ended.wait(timeout: 10))
    #expect(other.error == nil)
    #expect(stalled.allSatisfy { $0.endCount == 0 }, "the first site's transfers are still held")
  }

  /// Two servers on one address are one site: the per-host cap counts them together, which is
  /// what protects a server that answers under several ports or names of one domain.
  @Test func oneSiteOnTwoPortsSharesItsCap() throws {
    let slow = HTTPScript(steps: [.wait(0.05), .send(Array("<rss/>".utf8))])
    let first = try LoopbackHTTPServer(routes: ["/feed": slow])
    let second = try LoopbackHTTPServer(routes: ["/feed": slow])
    var configuration = ConnectionWorker.Configuration.forLoopbackTests
    configuration.maxPerHost = 1
    let worker = try ConnectionWorker(configuration: configuration)
    defer { worker.stop() }
    let gauge = InFlightGauge()
    for index in 0..<6 {
      worker.add(
        TransferRequest(index % 2 == 0 ? first : second, "/feed"),
        delegate: GaugedDelegate(TransferLog(), gauge: gauge, host: "site"))
    }
    #expect(worker.waitUntilIdle(timeout: 30))
    #expect(gauge.peakTotal == 1)
  }

  /// `hostDelay` spaces the request starts to one site; another site is not held by it.
  @Test func hostDelaySpacesRequestsToOneSite() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>")])
    var configuration = ConnectionWorker.Configuration.forLoopbackTests
    configuration.hostDelay = .milliseconds(500)
    let worker = try ConnectionWorker(configuration: configuration)
    defer { worker.stop() }
    for _ in 0..<3 {
      worker.add(
        TransferRequest(server, "/feed?a", as: "a.localhost"),
        delegate: LoggingDelegate(TransferLog()))
    }
    worker.add(
      TransferRequest(server, "/feed?b", as: "b.localhost"),
      delegate: LoggingDelegate(TransferLog()))
    #expect(worker.waitUntilIdle(timeout: 30))
    let requests = server.requests
    let siteA = requests.filter { $0.target == "/feed?a" }.map(\.receivedAt).sorted()
    let siteB = requests.filter { $0.target == "/feed?b" }.map(\.receivedAt)
    #expect(siteA.count == 3 && siteB.count == 1)
    // Starts are 500 ms apart by the worker's clock (the admission tests check the spacing
    // exactly); a request's head reaches the server a moment after its start, and on a loaded
    // machine that moment varies, so the gaps seen here may be shorter by up to 100 ms.
    for (earlier, later) in zip(siteA, siteA.dropFirst()) {
      #expect(later - earlier >= 0.4, "requests to one site \(later - earlier) s apart")
    }
    // b.localhost was not held behind a.localhost's delay.
    if let b = siteB.first, let lastA = siteA.last { #expect(b < lastA) }
  }

  @Test func stopCancelsRunningAndQueuedTransfersExactlyOnce() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/stall": HTTPScript(framing: .chunked, steps: [.send(Array("<rss>".utf8)), .stallForever])
    ])
    var configuration = ConnectionWorker.Configuration.forLoopbackTests
    configuration.maxInFlight = 4
    let worker = try ConnectionWorker(configuration: configuration)
    let logs = (0..<12).map { _ in TransferLog() }
    for log in logs {
      worker.add(TransferRequest(server, "/stall"), delegate: LoggingDelegate(log))
    }
    // FIFO admission: the first four run and receive their first chunk; the rest wait.
    #expect(logs.prefix(4).allSatisfy { $0.chunks.wait(timeout: 10) })
    worker.stop()
    #expect(logs.allSatisfy { $0.endCount == 1 && $0.isWellOrdered })
    #expect(logs.allSatisfy { $0.error?.kind == .cancelled })
    #expect(logs.filter { !$0.body.isEmpty }.count == 4)
    #expect(worker.waitUntilIdle(timeout: 0))
    worker.stop()  // a second stop is harmless

    let late = TransferLog()
    worker.add(TransferRequest(server, "/stall"), delegate: LoggingDelegate(late))
    #expect(late.error?.kind == .cancelled)
    #expect(late.endCount == 1)
  }

  @Test func stopFromADelegateEndsEverythingWithoutDeadlock() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>"), "/silent": .silent])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    let silent = TransferLog()
    worker.add(TransferRequest(server, "/silent"), delegate: LoggingDelegate(silent))
    #expect(server.requestsReceived.wait(timeout: 10))
    let stopper = TransferLog()
    worker.add(
      TransferRequest(server, "/feed"),
      delegate: LoggingDelegate(
        stopper,
        onResponse: { _ in
          worker.stop()  // on the worker thread: starts the shutdown, cannot wait for itself
          return .allow
        }))
    #expect(silent.ended.wait(timeout: 10))
    #expect(stopper.ended.wait(timeout: 10))
    worker.stop()  // from the test thread: waits for the thread to end
    #expect(silent.endCount == 1 && silent.error?.kind == .cancelled)
    #expect(stopper.endCount == 1 && stopper.isWellOrdered)
  }

  /// `stop()` returns once the worker thread has ended, its thread-local destructors included
  /// (CoreFoundation's run loop, OpenSSL's and libxml2's per-thread state are freed by such
  /// destructors). A command exits right after `stop()`, and exit runs those libraries'
  /// clean-up: run beside a thread still ending, it corrupted the heap (docs/worker.md).
  @Test func stopReturnsOnceTheWorkerThreadHasEnded() throws {
    let server = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>")])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    let destructorRan = ThreadExitProbe()
    let log = TransferLog()
    worker.add(
      TransferRequest(server, "/feed"),
      delegate: LoggingDelegate(
        log,
        onResponse: { _ in
          destructorRan.arm()  // on the worker thread
          return .allow
        }))
    #expect(log.ended.wait(timeout: 10))
    #expect(!destructorRan.fired)
    worker.stop()
    #expect(destructorRan.fired)
  }

  @Test func releasingAWorkerStopsIt() throws {
    let server = try LoopbackHTTPServer(routes: ["/silent": .silent])
    let log = TransferLog()
    do {
      let worker = try ConnectionWorker(configuration: .forLoopbackTests)
      worker.add(TransferRequest(server, "/silent"), delegate: LoggingDelegate(log))
      #expect(server.requestsReceived.wait(timeout: 10))
    }
    #expect(log.endCount == 1)
    #expect(log.error?.kind == .cancelled)
  }

  @Test func everyCurlCallRunsOnTheWorkerThread() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": .ok("<rss/>"), "/silent": .silent,
      "/drip": HTTPScript(framing: .chunked, steps: [.send([65]), .wait(0.05), .send([66])]),
    ])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    let logs = (0..<3).map { _ in TransferLog() }
    worker.add(TransferRequest(server, "/feed"), delegate: LoggingDelegate(logs[0]))
    let silent = worker.add(TransferRequest(server, "/silent"), delegate: LoggingDelegate(logs[1]))
    let pausedOnce = EventLatch()
    let paused = worker.add(
      TransferRequest(server, "/drip"),
      delegate: LoggingDelegate(
        logs[2],
        onChunk: { index in
          guard index == 0 else { return .consumed }
          pausedOnce.signal()
          return .pause
        }))
    #expect(logs[0].ended.wait(timeout: 10))
    worker.cancel(silent)
    #expect(logs[1].ended.wait(timeout: 10))
    // resume only undoes a pause that happened; wait for it.
    #expect(pausedOnce.wait(timeout: 10))
    #expect(logs[2].chunks.value == 0)
    worker.resume(paused)
    #expect(logs[2].ended.wait(timeout: 10))
    worker.stop()
    let counts = worker.audit.counts
    #expect(counts.total > 50)
    #expect(counts.offThread == 0)
    #expect(logs.allSatisfy { $0.threadIDs == [worker.audit.ownerThreadID] })
  }

  /// Three transfers wait on servers that never answer: the worker must sleep, not poll.
  @Test func waitingOnSilentServersCostsAlmostNoCPU() throws {
    let servers = try (0..<3).map { _ in try LoopbackHTTPServer(routes: ["/silent": .silent]) }
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    defer { worker.stop() }
    let logs = servers.map { server in
      let log = TransferLog()
      worker.add(TransferRequest(server, "/silent"), delegate: LoggingDelegate(log))
      return log
    }
    #expect(servers.allSatisfy { $0.requestsReceived.wait(timeout: 10) })
    let threadBefore = try #require(worker.audit.ownerCPUSeconds)
    let processBefore = processCPUSeconds()
    // The measurement window: nothing may end while the servers stay silent.
    #expect(!logs[0].ended.wait(timeout: 2))
    let thread = try #require(worker.audit.ownerCPUSeconds) - threadBefore
    let process = processCPUSeconds() - processBefore
    print(
      "idle 2 s with 3 silent transfers: worker thread \(String(format: "%.4f", thread)) s CPU, "
        + "whole test process \(String(format: "%.4f", process)) s")
    #expect(thread < 0.02)
    #expect(logs.allSatisfy { $0.endCount == 0 })
  }

  @Test func workerWithoutTransfersSleeps() throws {
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    defer { worker.stop() }
    let before = try #require(worker.audit.ownerCPUSeconds)
    #expect(!EventLatch().wait(timeout: 1))
    let used = try #require(worker.audit.ownerCPUSeconds) - before
    #expect(used < 0.01)
  }

  private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }
}

/// How fast a call from another thread reaches the sleeping worker thread.
@Suite struct WakeLatencyTests {
  @Test func cancelFromAnotherThreadReachesTheSleepingWorkerWithinMilliseconds() throws {
    let server = try LoopbackHTTPServer(routes: ["/silent": .silent])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    defer { worker.stop() }
    var latencies: [Double] = []
    for round in 1...20 {
      let log = TransferLog()
      let id = worker.add(TransferRequest(server, "/silent"), delegate: LoggingDelegate(log))
      #expect(server.requestsReceived.wait(for: round, timeout: 10))
      let started = ProcessInfo.processInfo.systemUptime
      worker.cancel(id)
      #expect(log.ended.wait(timeout: 10))
      latencies.append(ProcessInfo.processInfo.systemUptime - started)
      #expect(log.error?.kind == .cancelled)
    }
    let sorted = latencies.sorted()
    let median = sorted[sorted.count / 2]
    print(
      "cancel → didFail across threads: median \(String(format: "%.3f", median * 1000)) ms, "
        + "max \(String(format: "%.3f", (sorted.last ?? 0) * 1000)) ms")
    #expect(median < 0.01)
  }
}

/// Sets a thread-local value with a destructor on the thread that calls `arm()`; `fired` says
/// whether that thread has since ended (the destructor runs as the thread exits). The destructor
/// takes a tenth of a second, as a library's clean-up may: part of the scenario, so that a
/// `stop()` that returns before the thread has ended is seen to.
final class ThreadExitProbe: Sendable {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { value in
      guard let value else { return }
      usleep(100_000)
      Unmanaged<ThreadExitProbe>.fromOpaque(value).takeRetainedValue().flag.store(
        true, ordering: .releasing)
    }
    return key
  }()
  private let flag = Atomic<Bool>(false)

  func arm() {
    pthread_setspecific(Self.key, Unmanaged.passRetained(self).toOpaque())
  }

  var fired: Bool { flag.load(ordering: .acquiring) }
}
