import FeedPull
import Foundation
import Subscriptions
import TestSupport
import Testing

/// The README's embedding example with state, kept in step with it by hand.
@Suite struct ReadmeSubscriptionExampleTests {
  @Test(arguments: [false, true]) func subscriptionExample(inMemory: Bool) async throws {
    let path = TemporaryState.path()
    let store: any SubscriptionStore =
      inMemory ? MemorySubscriptionStore() : try StoreLocation(path).open()
    let puller = try FeedPuller()
    let feed = RepositoryPaths.feeds.path + "/rss20.xml"
    var configuration = SubscriptionRun.Configuration(sources: .named([feed]))
    configuration.options.onlyDue = true
    let first = PullRecordCollector()
    let run = SubscriptionRun(
      store: store, puller: puller, configuration: configuration, into: first)
    run.start()
    let summary = await run.finished()
    let again = PullRecordCollector()
    let second = SubscriptionRun(
      store: store, puller: puller, configuration: configuration, into: again)
    second.start()
    _ = await second.finished()
    await puller.shutdown()
    #expect(summary.succeeded)
    let ends = first.records.compactMap { record -> EndRecord? in
      if case .end(let end) = record { end } else { nil }
    }
    #expect(ends.count == 1)
    #expect((ends.first?.subscription?.newItems ?? 0) > 0)
    #expect(first.records.contains { if case .item = $0 { true } else { false } })
    // Not due again yet: nothing pulled, one `end` that says so.
    #expect(again.records.count == 1)
    guard case .end(let skipped) = again.records.first else { return }
    #expect(skipped.ok)
    #expect(skipped.subscription?.skipped == .notDue)
  }
}
