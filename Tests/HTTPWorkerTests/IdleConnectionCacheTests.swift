import HTTPWorker
import TestSupport
import Testing

/// Connections a transfer leaves idle stay open for the next ones to the same host, however
/// few transfers are in flight in between: a subscription run between two claims, or a watch
/// between two due sources, has moments with one transfer running or none.
@Suite struct IdleConnectionCacheTests {
  /// Eight transfers at once, ending one by one (the last alone in curl), then eight more at
  /// once: the second eight reuse the first eight's connections. Under curl's own rule (keep
  /// four idle connections per transfer it holds) the cache shrank as the first eight ended one
  /// by one, a connection was closed, and the second eight opened one again (9 in all).
  @Test func aMomentWithOneTransferDoesNotCloseTheOthersConnections() throws {
    var routes: [String: HTTPScript] = [:]
    for index in 0..<8 {
      routes["/slow\(index)"] = HTTPScript(
        framing: .chunked,
        steps: [
          .send(Array("<rss>".utf8)), .wait(0.2 + 0.05 * Double(index)),
          .send(Array("</rss>".utf8)),
        ])
    }
    let server = try LoopbackHTTPServer(routes: routes)
    var configuration = ConnectionWorker.Configuration.forLoopbackTests
    configuration.maxInFlight = 8
    configuration.maxPerHost = 8
    let worker = try ConnectionWorker(configuration: configuration)
    for wave in 0..<2 {
      let logs = (0..<8).map { _ in TransferLog() }
      for (index, log) in logs.enumerated() {
        worker.add(
          TransferRequest(url: server.url("/slow\(index)?wave=\(wave)")),
          delegate: LoggingDelegate(log))
      }
      #expect(logs.allSatisfy { $0.ended.wait(timeout: 30) })
      #expect(logs.allSatisfy { $0.error == nil && $0.body == Array("<rss></rss>".utf8) })
    }
    #expect(worker.waitUntilIdle(timeout: 5))
    worker.stop()
    #expect(server.requests.count == 16)
    #expect(server.connectionCount == 8)
  }

  /// A worker given no practical limit (`Int.max` transfers at once) keeps as many idle
  /// connections as curl can count, rather than overflowing four times that.
  @Test func aWorkerWithoutALimitStillStarts() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": HTTPScript(framing: .contentLength, steps: [.send(Array("<rss></rss>".utf8))])
    ])
    var configuration = ConnectionWorker.Configuration.forLoopbackTests
    configuration.maxInFlight = .max
    let worker = try ConnectionWorker(configuration: configuration)
    let log = TransferLog()
    worker.add(TransferRequest(url: server.url("/feed")), delegate: LoggingDelegate(log))
    #expect(log.ended.wait(timeout: 30))
    #expect(log.error == nil && log.body == Array("<rss></rss>".utf8))
    worker.stop()
  }
}
