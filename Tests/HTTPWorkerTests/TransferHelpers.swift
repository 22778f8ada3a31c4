import FeedPullSupport
import Foundation
import HTTPWorker
import TestSupport
import Testing

/// Runs one transfer on its own worker and waits (with a deadline) for its end.
func runTransfer(
  _ request: TransferRequest, waitAtMost timeout: Double = 10,
  delegate makeDelegate: (TransferLog) -> LoggingDelegate = { LoggingDelegate($0) }
) throws -> TransferLog {
  let worker = try ConnectionWorker(configuration: .forLoopbackTests)
  defer { worker.stop() }
  let log = TransferLog()
  worker.add(request, delegate: makeDelegate(log))
  #expect(log.ended.wait(timeout: timeout), "transfer did not end within \(timeout) s")
  #expect(log.isWellOrdered, "delegate order broken: \(log.all)")
  return log
}

/// The bytes of a fixture under Tests/Fixtures/http.
func httpFixture(_ name: String) throws -> [UInt8] {
  Array(try Data(contentsOf: RepositoryPaths.fixtures.appendingPathComponent("http/\(name)")))
}

extension TransferRequest {
  /// A request for `path` on `server`.
  init(_ server: LoopbackHTTPServer, _ path: String) {
    self.init(url: server.url(path))
  }

  /// A request for `path` on `server` under another loopback name (`a.localhost`): curl resolves
  /// every `*.localhost` name to the loopback address, and each name is a politeness host of its
  /// own, so one server can stand for several sites.
  init(_ server: LoopbackHTTPServer, _ path: String, as name: String) {
    self.init(url: server.url(path).replacingOccurrences(of: "127.0.0.1", with: name))
  }
}

/// A list of times written from one thread and read from another.
final class EventLatchTimes: Sendable {
  private let storage = TSanVisibleMutex<[Double]>([])

  func append(_ value: Double) {
    storage.withLock { $0.append(value) }
  }

  var values: [Double] { storage.withLock { $0 } }
}
