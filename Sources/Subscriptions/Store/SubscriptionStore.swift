/// Where subscription state lives between pulls: the base capability every store has. The state
/// is queried per source, never loaded whole, so that a large state stays cheap; every batch of
/// source ends is one transaction (`record`).
///
/// The methods are synchronous because the databases behind them are: a run calls them on a
/// queue of its own (`SubscriptionRun`), never on Swift's cooperative thread pool. A store that
/// several processes share adds `LeasingSubscriptionStore`; code outside the stores asks for that
/// capability and never names a concrete store.
public protocol SubscriptionStore: AnyObject, Sendable {
  /// Adds sources the store does not know yet, due at once; known ones are left as they are.
  func register(_ sources: [String]) throws(StoreError)
  /// One source's state; nil when unknown.
  func state(of source: String) throws(StoreError) -> SubscriptionState?
  /// Sources whose next check is at or before `now`, earliest first, at most `limit`, read
  /// without a lease (`LeasingSubscriptionStore.claimDue` leases them).
  func dueSources(at now: Duration, limit: Int) throws(StoreError) -> [SubscriptionState]
  /// The items a source is known to have delivered (tombstones included).
  func ledger(of source: String) throws(StoreError) -> [RememberedItem]
  /// Stores sources' ends in one transaction: each one's new state, the items its pull saw
  /// (written and flushed before this call), tombstones and retention, and a host's hold; a
  /// lease on the source is given back.
  func record(_ outcomes: [PullOutcome]) throws(StoreError)
  /// Until when `host` asked to be left alone; nil when it did not.
  func hostHold(_ host: String) throws(StoreError) -> Duration?
  /// The holds of `hosts` that last past `now` (a claim's granted sources' hosts, at once).
  func hostHolds(of hosts: Set<String>, now: Duration) throws(StoreError) -> [String: Duration]
  /// Whether any host's hold lasts past `now`: when none does (the usual), a run need not work
  /// out its sources' hosts to ask.
  func hasHostHolds(now: Duration) throws(StoreError) -> Bool
  /// Every source's state, in source order, one at a time (for `state list` and `export`).
  func forEachState(_ body: (SubscriptionState) throws(StoreError) -> Void) throws(StoreError)
  /// Every source's state with the items it remembers, in source order, one source at a time
  /// (`state export`). By default the names are read first and each source is then asked for
  /// on its own; a store may read them in one pass.
  func forEachStateWithLedger(
    _ body: (SubscriptionState, [RememberedItem]) throws(StoreError) -> Void
  ) throws(StoreError)
  /// Removes a source and what it remembers; false when it was unknown.
  func forget(_ source: String) throws(StoreError) -> Bool
  /// Makes what is committed whole in the store's main file (SQLite folds its write-ahead log
  /// into the database, so that a copy of the file alone is the whole state). Called at the end
  /// of every run and on a clean stop; a store with nothing to fold does nothing.
  func checkpoint() throws(StoreError)
}

extension SubscriptionStore {
  /// The names first (a store may hold its connection while it walks its states), then each
  /// source's state and ledger; a source forgotten meanwhile is left out.
  public func forEachStateWithLedger(
    _ body: (SubscriptionState, [RememberedItem]) throws(StoreError) -> Void
  ) throws(StoreError) {
    var sources: [String] = []
    try forEachState { sources.append($0.source) }
    for source in sources {
      guard let state = try state(of: source) else { continue }
      try body(state, try ledger(of: source))
    }
  }

  /// Nothing to fold by default.
  public func checkpoint() throws(StoreError) {}

  /// By default, true: the run asks `hostHolds`.
  public func hasHostHolds(now: Duration) throws(StoreError) -> Bool { true }

  /// By default, `hostHold` of each host.
  public func hostHolds(of hosts: Set<String>, now: Duration) throws(StoreError)
    -> [String: Duration]
  {
    var holds: [String: Duration] = [:]
    for host in hosts {
      if let until = try hostHold(host), until > now { holds[host] = until }
    }
    return holds
  }

  /// Stores one source's end (see `record(_:)` for a batch).
  public func record(_ outcome: PullOutcome) throws(StoreError) {
    try record([outcome])
  }
}

/// What one source's end stores.
public struct PullOutcome: Sendable {
  /// The source's new state.
  public var state: SubscriptionState
  /// Items the pull saw, to remember (upserted by key).
  public var seenItems: [RememberedItem]
  /// True when the pull read a whole body: remembered items it did not see become tombstones.
  public var sawWholeFeed: Bool
  /// A Retry-After the end set for the source's site.
  public var hostHold: (host: String, until: Duration)?
  /// The time of the end, for retention.
  public var now: Duration
  /// How long identities are remembered.
  public var retention = RetentionRule()
  /// The state the pull started from, as the store gave it, when the caller knows it: a store
  /// may then write only the columns that changed (a 304 moves little but the schedule). Nil:
  /// the whole state is written.
  public var before: SubscriptionState?

  /// The end of a pull at `now` that leaves `state` and saw `seenItems`; `retention` and
  /// `before` as their properties say. Taken here rather than set afterwards, so that a
  /// caller's states move in instead of being copied into a value built and then copied out.
  public init(
    state: consuming SubscriptionState, seenItems: [RememberedItem], sawWholeFeed: Bool,
    hostHold: (host: String, until: Duration)?, now: Duration,
    retention: RetentionRule = RetentionRule(), before: consuming SubscriptionState? = nil
  ) {
    self.state = state
    self.seenItems = seenItems
    self.sawWholeFeed = sawWholeFeed
    self.hostHold = hostHold
    self.now = now
    self.retention = retention
    self.before = before
  }
}
