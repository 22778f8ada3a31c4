import FeedPull
import Foundation
import Subscriptions
import TestSupport
import Testing

/// The README's embedding example with state, kept in step with it by hand.
@Suite struct ReadmeSubscriptionExampleTests {
  @Test(arguments: [false, true]) func subscriptionExample(inMemory: Bool) throws {
    let path = TemporaryState.path()
    let store: any SubscriptionStore =
      inMemory ? MemorySubscriptionStore() : try SQLiteSubscriptionStore(path: path)
    var options = SubscriptionPullOptions()
    options.onlyDue = true
    let puller = try FeedPuller()
    let pull = SubscribedPull(store: store, puller: puller, options: options) {
      Int64(Date().timeIntervalSince1970)
    }
    let feed = RepositoryPaths.feeds.path + "/rss20.xml"
    let first = PullRecordCollector()
    let result = try pull.run([feed], into: first)
    let again = PullRecordCollector()
    let second = try pull.run([feed], into: again)
    puller.syncShutdown()
    #expect(result.ends.count == 1)
    #expect((result.ends.first?.newItems ?? 0) > 0)
    #expect(first.records.contains { if case .item = $0 { true } else { false } })
    // Not due again yet: nothing pulled, nothing written.
    #expect(second.ends.isEmpty)
    #expect(again.records.isEmpty)
  }
}
