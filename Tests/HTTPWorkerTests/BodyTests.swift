import Foundation
import HTTPWorker
import TestSupport
import Testing

/// Framings, encodings, limits and broken bodies.
@Suite struct BodyTests {
  @Test func chunkedBodyIsDecodedFromItsFraming() throws {
    let parts = ["<rss>", "<channel>", String(repeating: "z", count: 40_000), "</channel></rss>"]
    let server = try LoopbackHTTPServer(routes: [
      "/feed": HTTPScript(framing: .chunked, steps: parts.map { .send(Array($0.utf8)) })
    ])
    let log = try runTransfer(TransferRequest(server, "/feed"))
    #expect(log.error == nil)
    #expect(String(decoding: log.body, as: UTF8.self) == parts.joined())
    #expect(log.summary?.bodyBytes == Int64(parts.joined().utf8.count))
  }

  @Test func closeDelimitedBodyEndsWithTheConnection() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": HTTPScript(framing: .closeDelimited, steps: [.send(Array("<rss/>".utf8))])
    ])
    let log = try runTransfer(TransferRequest(server, "/feed"))
    #expect(log.error == nil)
    #expect(log.body == Array("<rss/>".utf8))
  }

  @Test func gzipBodyIsDeliveredDecoded() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed.gz": HTTPScript(
        headers: [("Content-Encoding", "gzip")], steps: [.send(try httpFixture("feed.xml.gz"))])
    ])
    let log = try runTransfer(TransferRequest(server, "/feed.gz"))
    #expect(log.error == nil)
    #expect(log.body == (try httpFixture("feed.xml")))
    #expect(log.summary?.bodyBytes == Int64(try httpFixture("feed.xml").count))
  }

  @Test func gzipBombStopsAtTheLimitOfDecodedBytes() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/bomb": HTTPScript(
        headers: [("Content-Encoding", "gzip")],
        steps: [.send(try httpFixture("bomb-200MiB-zeros.gz"))])
    ])
    var request = TransferRequest(server, "/bomb")
    request.maxBodyBytes = 1_000_003
    let log = try runTransfer(request)
    #expect(log.error?.kind == .tooLarge)
    #expect(log.body.count == 1_000_003)
    #expect(log.body.allSatisfy { $0 == 0 })
    #expect(log.summary?.bodyBytes == 1_000_003)
  }

  @Test func endlessBodyStopsAtTheLimit() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/endless": HTTPScript(
        framing: .chunked, steps: [.endless(Array(repeating: 65, count: 4096))])
    ])
    var request = TransferRequest(server, "/endless")
    request.maxBodyBytes = 100_000
    let log = try runTransfer(request)
    #expect(log.error?.kind == .tooLarge)
    #expect(log.body.count == 100_000)
  }

  @Test func bodyOfExactlyTheLimitIsFine() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": HTTPScript(steps: [.send(Array(repeating: 66, count: 5000))])
    ])
    var request = TransferRequest(server, "/feed")
    request.maxBodyBytes = 5000
    let log = try runTransfer(request)
    #expect(log.error == nil)
    #expect(log.body.count == 5000)
  }

  /// The first chunk of a slow body reaches the delegate long before the body ends, and within
  /// milliseconds of the server writing it.
  @Test func slowDripDeliversTheFirstChunkBeforeTheEnd() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/drip": HTTPScript(
        framing: .chunked,
        steps: [
          .send(Array("<rss>".utf8)), .wait(0.3), .mark("second"), .send(Array("<item/>".utf8)),
          .wait(1.5), .send(Array("</rss>".utf8)),
        ])
    ])
    let worker = try ConnectionWorker(configuration: .forLoopbackTests)
    defer { worker.stop() }
    let log = TransferLog()
    let arrivals = ArrivalClock()
    worker.add(
      TransferRequest(server, "/drip"),
      delegate: LoggingDelegate(log, onChunk: { _ in arrivals.note() }))
    #expect(log.chunks.wait(for: 2, timeout: 10))
    #expect(log.endCount == 0, "the second chunk arrived only at the end")
    let written = try #require(server.mark("second"))
    let latency = try #require(arrivals.times.dropFirst().first) - written
    #expect(latency < 0.05, "wake latency \(latency * 1000) ms")
    print("slow drip: chunk written → delegate in \(String(format: "%.3f", latency * 1000)) ms")
    #expect(log.ended.wait(timeout: 10))
    #expect(log.error == nil)
    #expect(String(decoding: log.body, as: UTF8.self) == "<rss><item/></rss>")
  }

  @Test func stalledServerTimesOutWithinTheLimit() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/stall": HTTPScript(
        framing: .chunked, steps: [.send(Array("<rss>".utf8)), .stallForever])
    ])
    var request = TransferRequest(server, "/stall")
    request.timeout = .milliseconds(1500)
    let started = ProcessInfo.processInfo.systemUptime
    let log = try runTransfer(request)
    let elapsed = ProcessInfo.processInfo.systemUptime - started
    #expect(log.error?.kind == .timeout)
    #expect(log.body == Array("<rss>".utf8))
    #expect(elapsed >= 1.4 && elapsed < 2.5, "timed out after \(elapsed) s")
  }

  @Test func silentServerTimesOutBeforeAnyResponse() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/silent": .silent
    ])
    var request = TransferRequest(server, "/silent")
    request.timeout = .seconds(60)
    request.lowSpeedTime = .seconds(1)
    let started = ProcessInfo.processInfo.systemUptime
    let log = try runTransfer(request)
    let elapsed = ProcessInfo.processInfo.systemUptime - started
    #expect(log.error?.kind == .timeout)
    #expect(elapsed < 5, "low-speed limit took \(elapsed) s")
  }

  @Test func resetMidBodyKeepsEarlierChunksThenFailsWithNetwork() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/reset": HTTPScript(
        framing: .chunked,
        steps: [.send(Array("<rss><item/>".utf8)), .wait(0.1), .reset])
    ])
    let log = try runTransfer(TransferRequest(server, "/reset"))
    #expect(log.error?.kind == .network)
    #expect(log.body == Array("<rss><item/>".utf8))
  }

  @Test func bodyShorterThanContentLengthIsNetworkError() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/short": HTTPScript(framing: .declaredLength(1000), steps: [.send(Array("<rss/>".utf8))])
    ])
    let log = try runTransfer(TransferRequest(server, "/short"))
    #expect(log.error?.kind == .network)
    #expect(log.body == Array("<rss/>".utf8))
  }

  @Test func missingLastChunkIsNetworkError() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/cut": HTTPScript(framing: .chunkedWithoutLastChunk, steps: [.send(Array("<rss/>".utf8))])
    ])
    let log = try runTransfer(TransferRequest(server, "/cut"))
    #expect(log.error?.kind == .network)
    #expect(log.body == Array("<rss/>".utf8))
  }
}

/// When each chunk reached the delegate (system uptime), for latency figures.
final class ArrivalClock: Sendable {
  private let recorded = EventLatchTimes()

  func note() -> ChunkDisposition {
    recorded.append(ProcessInfo.processInfo.systemUptime)
    return .consumed
  }

  var times: [Double] { recorded.values }
}
