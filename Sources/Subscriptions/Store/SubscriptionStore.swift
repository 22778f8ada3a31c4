/// Where subscription state lives between pulls. The state is queried per source, never loaded
/// whole, so that a large state stays cheap; the protocol is shaped for a shared server
/// database too, where many workers claim due sources under leases (`claimDue`), and every
/// source's end is one transaction (`record`).
public protocol SubscriptionStore: AnyObject, Sendable {
  /// Adds sources the store does not know yet, due at once; known ones are left as they are.
  func register(_ sources: [String]) throws(StoreError)
  /// Sources whose next check is at or before `now`, earliest first, at most `limit`. A shared
  /// store leases them to the caller; a single-process store just reads them.
  func claimDue(now: Int64, limit: Int) throws(StoreError) -> [SubscriptionState]
  /// One source's state; nil when unknown.
  func state(of source: String) throws(StoreError) -> SubscriptionState?
  /// The items a source is known to have delivered (tombstones included).
  func ledger(of source: String) throws(StoreError) -> [RememberedItem]
  /// Stores a source's end: its new state, the items its pull saw (written and flushed
  /// before this call), tombstones and retention, and a host's hold — in one transaction.
  func record(_ outcome: PullOutcome) throws(StoreError)
  /// Until when (seconds since 1970) `host` asked to be left alone; nil when it did not.
  func hostHold(_ host: String) throws(StoreError) -> Int64?
  /// Every source's state, in source order, one at a time (for `state list` and `export`).
  func forEachState(_ body: (SubscriptionState) throws(StoreError) -> Void) throws(StoreError)
  /// Removes a source and what it remembers; false when it was unknown.
  func forget(_ source: String) throws(StoreError) -> Bool
  /// When each of `sources` is next due (seconds since 1970), without reading whole states: a
  /// watch loads its schedule with it. Unknown sources are left out. A store need not implement
  /// it: the default reads each state.
  func nextCheckTimes(of sources: [String]) throws(StoreError) -> [String: Int64]
}

extension SubscriptionStore {
  /// The default reads each state; a store with an index answers without decoding them.
  public func nextCheckTimes(of sources: [String]) throws(StoreError) -> [String: Int64] {
    var times: [String: Int64] = [:]
    for source in sources {
      if let state = try state(of: source) { times[source] = state.nextCheckAt }
    }
    return times
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
  public var hostHold: (host: String, until: Int64)?
  /// The time of the end (seconds since 1970), for retention.
  public var now: Int64
  /// How long identities are remembered.
  public var retention = RetentionRule()

  public init(
    state: SubscriptionState, seenItems: [RememberedItem], sawWholeFeed: Bool,
    hostHold: (host: String, until: Int64)?, now: Int64
  ) {
    self.state = state
    self.seenItems = seenItems
    self.sawWholeFeed = sawWholeFeed
    self.hostHold = hostHold
    self.now = now
  }
}
