import Foundation
import TestSupport
import Testing

@testable import FeedPull

/// The async/await API: ordering, flow control against a slow consumer, cancellation.
@Suite struct AsyncPullTests {
  @Test func slowConsumerHoldsTheTransferBackAndLosesNothing() async throws {
    let itemCount = 100_000
    let server = try LoopbackHTTPServer(routes: [
      "/big": HTTPScript(framing: .chunked, steps: [.send(Array(rssFeed(items: itemCount).utf8))])
    ])
    // The whole-transfer timeout keeps running while a transfer is held back (docs/pipeline.md);
    // under a sanitizer on a busy machine this consumer takes longer than the default 30 s.
    var options = FeedPuller.Configuration.forLoopbackTests
    options.timeout = .seconds(300)
    let puller = try FeedPuller(configuration: options)
    defer { puller.syncShutdown() }
    let limit = 64
    let stream = puller.records(server.url("/big"), bufferLimit: limit)
    var iterator = stream.makeAsyncIterator()
    _ = await iterator.next()
    // Stop consuming until the producer has been held back: without flow control it never is,
    // and the whole feed would pile up in the buffer.
    // A deadline for a loaded host, where the producer thread may wait long for a core.
    let deadline = Date(timeIntervalSinceNow: 120)
    while stream.buffer.holds == 0 && Date() < deadline { await Task.yield() }
    #expect(stream.buffer.holds > 0, "the transfer was never held back")
    var items = 0
    var lastIndex = -1
    var end: EndRecord?
    while let record = await iterator.next() {
      switch record {
      case .item(let item):
        #expect(item.item.index == lastIndex + 1)
        lastIndex = item.item.index
        items += 1
      case .end(let record): end = record
      case .feed: break
      }
    }
    #expect(items == itemCount)
    #expect(end?.ok == true, "\(String(describing: end?.error))")
    // One curl chunk (at most 16 KiB) holds at most a few hundred of these items.
    #expect(stream.buffer.peakWaiting < limit + 400, "peak \(stream.buffer.peakWaiting) records")
  }

  @Test func cancellingTheConsumerCancelsTheTransfer() async throws {
    let server = try LoopbackHTTPServer(routes: [
      "/stall": HTTPScript(
        framing: .chunked,
        steps: [.send(Array("<rss version=\"2.0\"><channel><title>x</title>".utf8)), .stallForever])
    ])
    let puller = try FeedPuller(configuration: .forLoopbackTests)
    defer { puller.syncShutdown() }
    let stream = puller.records(server.url("/stall"))
    let consumer = Task {
      var count = 0
      for await _ in stream { count += 1 }
      return count
    }
    #expect(await server.requestsReceived.waitAsync(timeout: 10))
    consumer.cancel()
    _ = await consumer.value
    #expect(stream.buffer.allEnded.wait(timeout: .now() + 10) == .success)
    #expect(puller.activeSources == 0)
  }
}
