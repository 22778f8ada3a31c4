import FeedPull
import FeedPullSupport
import Foundation
import Subscriptions
import TestSupport
import Testing

/// Stopping a pass with state: every source gets its `end`, queued ones are not requested,
/// and cancelled sources stay due.
@Suite struct CancelledPullTests {
  @Test func stopEndsStartedAndQueuedSourcesAndTheyStayDue() async throws {
    let server = try LoopbackHTTPServer(routes: [
      "/stall": HTTPScript(
        framing: .chunked,
        steps: [.send(Array(subscribedFeed(["a"]).prefix(120).utf8)), .stallForever])
    ])
    let sources = (0..<6).map { server.url("/stall?\($0)") }
    let store = MemorySubscriptionStore()
    var options = FeedPuller.Configuration.forLoopbackTests
    options.maxConcurrentTransfers = 1
    // The stalled transfers must still be running when `stop` comes, however long a loaded
    // host keeps this task from running: no transfer ends by its own timeout here.
    options.timeout = .seconds(3_600)
    let puller = try FeedPuller(configuration: options)
    let now: Duration = .seconds(1_796_126_400)
    var configuration = SubscriptionRun.Configuration(sources: .named(SourceList(sources)))
    configuration.clock = .fixed(at: now)
    let collector = PullRecordCollector()
    let run = SubscriptionRun(
      store: store, puller: puller, configuration: configuration, into: collector)
    // The stop must come while the first transfer stalls: waited for on a thread of its own, so
    // that long synchronous tests holding the cooperative pool cannot delay it past the
    // transfers' timeout.
    let (requested, summary) = try await onItsOwnThread {
      run.start()
      let requested = server.requestsReceived.wait(for: 1, timeout: 30)
      run.stop()
      return (requested, run.wait())
    }
    #expect(requested)
    await puller.shutdown()
    let ends = collector.records.compactMap { record -> EndRecord? in
      if case .end(let end) = record { end } else { nil }
    }
    #expect(ends.count == 6)
    #expect(summary.ends == 6)
    #expect(ends.allSatisfy { $0.error?.kind == .cancelled })
    // One job, a window of two: the other four were never requested.
    #expect(server.requests.count <= 2)
    for source in sources {
      #expect((try store.state(of: source)?.nextCheckAt ?? .zero) <= now, "\(source) stays due")
    }
  }
}
