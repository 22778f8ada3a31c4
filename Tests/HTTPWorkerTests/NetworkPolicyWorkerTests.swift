import HTTPWorker
import TestSupport
import Testing

/// The worker's own network policy against real servers: an address refused on a redirect hop
/// before any connection, a downgrade refused before anything is sent, a header too large for
/// libcurl reported as `tooLarge`. (Also under ThreadSanitizer in CI: the open-socket and header
/// callbacks run on the worker thread.)
@Suite struct NetworkPolicyWorkerTests {
  static func worker(_ change: (inout ConnectionWorker.Configuration) -> Void) throws
    -> ConnectionWorker
  {
    var configuration = ConnectionWorker.Configuration.forLoopbackTests
    change(&configuration)
    return try ConnectionWorker(configuration: configuration)
  }

  static func run(_ request: TransferRequest, on worker: ConnectionWorker) -> TransferLog {
    let log = TransferLog()
    worker.add(request, delegate: LoggingDelegate(log))
    #expect(log.ended.wait(timeout: 20), "transfer did not end")
    #expect(log.isWellOrdered, "delegate order broken: \(log.all)")
    return log
  }

  @Test func aRedirectHopToADeniedAddressIsNeverConnected() throws {
    let target = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>")])
    let outside = try LoopbackScriptServer(
      address: "127.0.0.2",
      routes: [
        "/hop": .redirect(to: target.url("/feed")), "/feed": .ok("<rss/>"),
      ])
    let allowed = try #require(IPNetwork("127.0.0.2/32"))
    let worker = try Self.worker {
      $0.addressPolicy = AddressPolicy(deniesPrivate: true, allowed: [allowed])
    }
    defer { worker.stop() }
    let denied = Self.run(TransferRequest(url: outside.url("/hop")), on: worker)
    #expect(denied.error?.kind == .denied)
    #expect(
      denied.error?.message.contains("127.0.0.1") == true, "\(String(describing: denied.error))")
    #expect(target.connectionCount == 0)
    let direct = Self.run(TransferRequest(url: outside.url("/feed")), on: worker)
    #expect(direct.error == nil)
    #expect(direct.body == Array("<rss/>".utf8))
  }

  @Test func aDowngradeIsRefusedBeforeAnythingIsSentUnlessAllowed() throws {
    let certificates = try TestCertificates.make()
    let plain = try LoopbackHTTPServer(routes: ["/feed": .ok("<rss/>")])
    let secure = try LoopbackScriptServer(
      routes: ["/moved": .redirect(301, to: plain.url("/feed"))],
      certificate: certificates.server)
    for allows in [false, true] {
      let worker = try Self.worker {
        $0.trust = TLSTrust(caFile: certificates.caFile)
        $0.allowsDowngrade = allows
      }
      let log = Self.run(TransferRequest(url: secure.url("/moved")), on: worker)
      worker.stop()
      if allows {
        #expect(log.error == nil)
        #expect(log.response?.url == plain.url("/feed"))
      } else {
        #expect(log.error?.kind == .protocol)
        #expect(log.error?.status == 301)
        #expect(plain.connectionCount == 0)
      }
    }
    #expect(plain.requests.count == 1)
  }

  @Test func aHeaderPastLibcurlsBufferIsTooLarge() throws {
    let server = try LoopbackScriptServer(routes: [
      "/feed": .init(headers: [], body: Array("<rss/>".utf8), headerBytes: 1 << 20)
    ])
    let worker = try Self.worker { _ in }
    defer { worker.stop() }
    let log = Self.run(TransferRequest(url: server.url("/feed")), on: worker)
    #expect(log.error?.kind == .tooLarge, "\(String(describing: log.error))")
  }
}
