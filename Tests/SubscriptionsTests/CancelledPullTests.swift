import FeedPull
import FeedPullSupport
import Foundation
import Subscriptions
import TestSupport
import Testing

/// Cancelling a pull with state: every source gets its `end`, queued ones are not requested,
/// and cancelled sources stay due.
@Suite struct CancelledPullTests {
  @Test func cancelEndsStartedAndQueuedSourcesAndTheyStayDue() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/stall": HTTPScript(
        framing: .chunked,
        steps: [.send(Array(subscribedFeed(["a"]).prefix(120).utf8)), .stallForever])
    ])
    let sources = (0..<6).map { server.url("/stall?\($0)") }
    let store = MemorySubscriptionStore()
    var options = FeedPuller.Configuration.forLoopbackTests
    options.maxConcurrentTransfers = 1
    let puller = try FeedPuller(configuration: options)
    defer { puller.syncShutdown() }
    let now: Int64 = 1_796_126_400
    let pull = SubscribedPull(
      store: store, puller: puller, options: SubscriptionPullOptions(), clock: { now })
    let collector = PullRecordCollector()
    let result = TSanVisibleMutex<SubscribedPull.Result?>(nil)
    let finished = EventLatch()
    Thread {
      let outcome = try? pull.run(sources, into: collector)
      result.withLock { $0 = outcome }
      finished.signal()
    }.start()
    #expect(server.requestsReceived.wait(for: 1, timeout: 30))
    pull.cancel()
    #expect(finished.wait(timeout: 30))
    let ends = result.withLock { $0 }?.ends ?? []
    #expect(ends.count == 6)
    #expect(ends.allSatisfy { $0.error?.kind == .cancelled })
    // One job, a window of two: the other four were never requested.
    #expect(server.requests.count <= 2)
    for source in sources {
      #expect((try store.state(of: source)?.nextCheckAt ?? 0) <= now, "\(source) stays due")
    }
  }
}
