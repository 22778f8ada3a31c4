import FeedPull
import Foundation
import Subscriptions
import TestSupport
import Testing

/// `FeedWatcher`, the watch for embedders: an async sequence of records that runs until its
/// task is cancelled, taking sources while it runs.
@Suite struct FeedWatcherTests {
  static var shortIntervals: SubscriptionPullOptions {
    var options = SubscriptionPullOptions()
    options.schedule.minInterval = .seconds(1)
    options.schedule.maxInterval = .seconds(2)
    return options
  }

  @Test func yieldsNewItemsAsPublishedAndTakesSourcesWhileItRuns() async throws {
    let feeds = PublishedFeeds(["/a": ["a1"], "/b": ["b1"]])
    let server = try LoopbackHTTPServer(routes: [:], responder: feeds.script)
    let puller = try FeedPuller(configuration: .forLoopbackTests)
    let store = MemorySubscriptionStore()
    let watcher = FeedWatcher(
      store: store, puller: puller, sources: [server.url("/a")], options: Self.shortIntervals)
    let consumer = Task {
      var titles: [String] = []
      for await record in watcher {
        guard case .item(let item) = record else { continue }
        titles.append("\(item.item.title ?? "?"):\(item.status?.rawValue ?? "-")")
        if item.item.title == "a1" {
          watcher.add([server.url("/b")])
          feeds.publish("a2", on: "/a")
        }
        if titles.count == 3 { break }
      }
      return titles
    }
    let deadline = Task {
      try await Task.sleep(for: .seconds(60))
      consumer.cancel()
    }
    let titles = await consumer.value
    deadline.cancel()
    #expect(titles.sorted() == ["a1:new", "a2:new", "b1:new"])
    await watcher.stop()
    // Counted at each source's end: after `stop`, every end that wrote an item is in.
    let statistics = watcher.statistics
    #expect(statistics.sources == 2)
    #expect(statistics.items == 3)
    await puller.shutdown()
    #expect(
      (try store.state(of: server.url("/b"))?.pulls ?? 0) >= 1, "the added source was recorded")
  }

  /// A consumer that has not read yet holds new pulls back once `bufferLimit` records wait, and
  /// every source is pulled once it reads: nothing is lost on the way.
  @Test func aSlowConsumerHoldsPullsBackAndLosesNothing() async throws {
    let paths = (0..<20).map { "/f\($0)" }
    let feeds = PublishedFeeds(Dictionary(uniqueKeysWithValues: paths.map { ($0, ["t" + $0]) }))
    let server = try LoopbackHTTPServer(routes: [:], responder: feeds.script)
    var configuration = FeedPuller.Configuration.forLoopbackTests
    configuration.maxConcurrentTransfers = 1
    let puller = try FeedPuller(configuration: configuration)
    let watcher = FeedWatcher(
      store: MemorySubscriptionStore(), puller: puller, sources: paths.map { server.url($0) },
      options: Self.shortIntervals, bufferLimit: 2)
    // One pull writes three records (feed, item, end): past the limit of two, the watch waits.
    #expect(await server.requestsReceived.waitAsync(for: 1, timeout: 60))
    let consumer = Task {
      var titles = Set<String>()
      for await record in watcher {
        if case .item(let item) = record { titles.insert(item.item.title ?? "") }
        if titles.count == paths.count { break }
      }
      return titles
    }
    let deadline = Task {
      try await Task.sleep(for: .seconds(120))
      consumer.cancel()
    }
    let titles = await consumer.value
    deadline.cancel()
    #expect(titles == Set(paths.map { "t" + $0 }))
    await watcher.stop()
    await puller.shutdown()
  }

  @Test func endsWhenTheConsumingTaskIsCancelled() async throws {
    let server = try LoopbackHTTPServer(routes: ["/stall": .silent])
    let puller = try FeedPuller(configuration: .forLoopbackTests)
    let path = TemporaryState.path()
    defer {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    // As in the README: the SQLite store.
    let store = try SQLiteSubscriptionStore(path: path)
    let watcher = FeedWatcher(store: store, puller: puller, sources: [server.url("/stall")])
    let consumer = Task {
      var ends: [EndRecord] = []
      for await record in watcher {
        if case .end(let end) = record { ends.append(end) }
      }
      return ends
    }
    #expect(await server.requestsReceived.waitAsync(timeout: 30))
    consumer.cancel()
    _ = await consumer.value
    // The stop the cancellation began completes: the stalled pull ended and was recorded.
    await watcher.stop()
    #expect(try store.state(of: server.url("/stall"))?.lastCheckAt != nil)
    #expect(watcher.statistics.inFlight == 0)
    await puller.shutdown()
  }
}
