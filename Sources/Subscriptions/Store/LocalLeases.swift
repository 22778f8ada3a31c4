import FeedPullSupport

/// Leases kept in this process, for a store that has none of its own (the memory store, or an
/// embedder's store that implements only `SubscriptionStore`): claims are answered from the
/// store's states, and a claimed source stays this process's until its end is recorded, it is
/// released or postponed, so that one run never hands a source out twice. A run uses it in place
/// of the store's own leases when the store lacks the capability; it coordinates nothing between
/// processes, which such a store cannot be shared by anyway.
final class LocalLeases: LeasingSubscriptionStore {
  let base: any SubscriptionStore
  private let held = TSanVisibleMutex(Set<String>())

  init(_ base: any SubscriptionStore) {
    self.base = base
  }

  /// Held until given back: nobody else could take it.
  var leaseDuration: Duration { .seconds(3600) }

  func register(_ sources: [String]) throws(StoreError) { try base.register(sources) }
  func state(of source: String) throws(StoreError) -> SubscriptionState? {
    try base.state(of: source)
  }
  func dueSources(at now: Duration, limit: Int) throws(StoreError) -> [SubscriptionState] {
    try base.dueSources(at: now, limit: limit)
  }
  func ledger(of source: String) throws(StoreError) -> [RememberedItem] {
    try base.ledger(of: source)
  }
  func hostHold(_ host: String) throws(StoreError) -> Duration? { try base.hostHold(host) }
  func hostHolds(of hosts: Set<String>, now: Duration) throws(StoreError) -> [String: Duration] {
    try base.hostHolds(of: hosts, now: now)
  }
  func hasHostHolds(now: Duration) throws(StoreError) -> Bool { try base.hasHostHolds(now: now) }
  func forEachState(_ body: (SubscriptionState) throws(StoreError) -> Void) throws(StoreError) {
    try base.forEachState(body)
  }
  func forget(_ source: String) throws(StoreError) -> Bool { try base.forget(source) }
  func checkpoint() throws(StoreError) { try base.checkpoint() }

  func record(_ outcomes: [PullOutcome]) throws(StoreError) {
    try base.record(outcomes)
    held.withLock { held in
      for outcome in outcomes { held.remove(outcome.state.source) }
    }
  }

  func claim(_ sources: [String], at now: Duration, dueOnly: Bool, grantLimit: Int)
    throws(StoreError) -> [ClaimAnswer]
  {
    var answers: [ClaimAnswer] = []
    var granted = 0
    for source in sources {
      guard granted < grantLimit else { break }
      let known = try base.state(of: source)
      if known == nil { try base.register([source]) }
      let state = known ?? SubscriptionState(source: source)
      let taken = held.withLock { held in
        held.contains(source) ? false : held.insert(source).inserted
      }
      if !taken {
        answers.append(.leased(until: now + leaseDuration))
      } else if dueOnly && state.nextCheckAt > now {
        held.withLock { _ = $0.remove(source) }
        answers.append(.notDue(at: state.nextCheckAt, reason: state.nextCheckReason))
      } else {
        granted += 1
        answers.append(.granted(state))
      }
    }
    return answers
  }

  func claimDue(at now: Duration, limit: Int) throws(StoreError) -> [SubscriptionState] {
    let taken = held.withLock { $0.count }
    let due = try base.dueSources(at: now, limit: limit + taken)
    return held.withLock { held in
      Array(due.filter { held.insert($0.source).inserted }.prefix(limit))
    }
  }

  func renewLeases(of sources: [String]) throws(StoreError) {}

  func releaseLeases(of sources: [String]) throws(StoreError) {
    held.withLock { held in
      for source in sources { held.remove(source) }
    }
  }

  func postpone(_ source: String, until: Duration, reason: CheckReason) throws(StoreError) {
    if var state = try base.state(of: source) {
      state.nextCheckAt = until
      state.nextCheckReason = reason
      try base.record(
        PullOutcome(state: state, seenItems: [], sawWholeFeed: false, hostHold: nil, now: until))
    }
    try releaseLeases(of: [source])
  }

  func nextClaimable(after now: Duration) throws(StoreError) -> Duration? {
    let taken = held.withLock { $0 }
    let earliest = try base.dueSources(at: .seconds(Int64.max / 4), limit: taken.count + 1)
    return earliest.first { !taken.contains($0.source) }?.nextCheckAt
  }
}
