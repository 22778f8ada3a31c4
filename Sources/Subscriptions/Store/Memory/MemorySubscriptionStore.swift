import FeedPullSupport

/// A `SubscriptionStore` in memory: for an embedder that keeps state its own way (it can read
/// every `SubscriptionState` with `forEachState` and save them where it likes, or seed the store
/// with `init(states:)`), and a second implementation that keeps the store's test suite honest.
/// Nothing survives the process; a run leases its sources within the process
/// (`LocalLeases`), since nothing else can share the store.
public final class MemorySubscriptionStore: SubscriptionStore {
  private struct Contents {
    var states: [String: SubscriptionState] = [:]
    var items: [String: [Int64: RememberedItem]] = [:]
    var holds: [String: Duration] = [:]
  }

  private let contents = TSanVisibleMutex(Contents())

  /// A store holding `states` (e.g. read back from an embedder's own database).
  public init(states: [SubscriptionState] = []) {
    contents.withLock { contents in
      for state in states { contents.states[state.source] = state }
    }
  }

  /// Adds unknown sources, due at once.
  public func register(_ sources: [String]) throws(StoreError) {
    contents.withLock { contents in
      for source in sources where contents.states[source] == nil {
        contents.states[source] = SubscriptionState(source: source)
      }
    }
  }

  /// The due sources, earliest first.
  public func dueSources(at now: Duration, limit: Int) throws(StoreError) -> [SubscriptionState] {
    contents.withLock { contents in
      Array(
        contents.states.values.filter { $0.nextCheckAt <= now }
          .sorted { ($0.nextCheckAt, $0.source) < ($1.nextCheckAt, $1.source) }
          .prefix(limit))
    }
  }

  /// The source's state, if it is known.
  public func state(of source: String) throws(StoreError) -> SubscriptionState? {
    contents.withLock { $0.states[source] }
  }

  /// The identities the source has delivered, tombstones included.
  public func ledger(of source: String) throws(StoreError) -> [RememberedItem] {
    contents.withLock { Array(($0.items[source] ?? [:]).values) }
  }

  /// Applies the ends under the store's lock: states, items, tombstones, retention, holds.
  public func record(_ outcomes: [PullOutcome]) throws(StoreError) {
    contents.withLock { contents in
      for outcome in outcomes { Self.apply(outcome, to: &contents) }
    }
  }

  private static func apply(_ outcome: PullOutcome, to contents: inout Contents) {
    let state = outcome.state
    contents.states[state.source] = state
    var items = contents.items[state.source] ?? [:]
    for item in outcome.seenItems { items[item.key] = item }
    if outcome.sawWholeFeed {
      let oldestPull = state.pulls - outcome.retention.pulls
      let oldestTime = (outcome.now - outcome.retention.age).inWholeSeconds
      for (key, item) in items {
        if item.lastPull <= oldestPull && item.lastSeenAt < oldestTime {
          items[key] = nil
        } else if item.lastPull < state.pulls {
          items[key]?.gone = true
        }
      }
    }
    contents.items[state.source] = items
    if let hold = outcome.hostHold {
      contents.holds[hold.host] = max(contents.holds[hold.host] ?? hold.until, hold.until)
    }
  }

  /// Until when `host` asked to be left alone.
  public func hostHold(_ host: String) throws(StoreError) -> Duration? {
    contents.withLock { $0.holds[host] }
  }

  /// Every state, in source order.
  public func forEachState(_ body: (SubscriptionState) throws(StoreError) -> Void)
    throws(StoreError)
  {
    let states = contents.withLock { $0.states.values.sorted { $0.source < $1.source } }
    for state in states { try body(state) }
  }

  /// Removes the source and its identities; false when it was unknown.
  public func forget(_ source: String) throws(StoreError) -> Bool {
    contents.withLock { contents in
      contents.items[source] = nil
      return contents.states.removeValue(forKey: source) != nil
    }
  }
}
