import TestSupport
import Testing

@testable import HTTPWorker

/// Statuses, headers and bodies: what the delegate is told for each kind of response.
@Suite struct ResponseTests {
  @Test func bodyInChunksArrivesInOrderAfterTheResponse() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/feed": HTTPScript(
        headers: [("Content-Type", "application/rss+xml"), ("ETag", "\"abc\"")],
        steps: [.send(Array("<rss>".utf8)), .wait(0.05), .send(Array("</rss>".utf8))])
    ])
    let worker = ConnectionWorker()
    defer { worker.stop() }
    let log = TransferLog()
    worker.add(TransferRequest(url: server.url("/feed")), delegate: LoggingDelegate(log))
    #expect(log.ended.wait(timeout: 10))
    #expect(log.isWellOrdered)
    #expect(String(decoding: log.body, as: UTF8.self) == "<rss></rss>")
    #expect(log.response?.status == 200)
    #expect(log.response?.etag == "\"abc\"")
    #expect(log.response?.contentType == "application/rss+xml")
    #expect(log.response?.url == server.url("/feed"))
    #expect(log.response?.permanentRedirect == false)
    #expect(log.summary?.bodyBytes == 11)
    #expect(log.error == nil)
    #expect(log.threadIDs == [worker.audit.ownerThreadID])
  }
}
