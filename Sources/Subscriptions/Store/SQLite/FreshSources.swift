import FeedPullSupport

/// The sources a SQLite store inserted in a claim (leased to it) whose end it has not recorded
/// yet, by name, with their row ids. Such a source remembers no items: its ledger is answered
/// without a query (and without waiting for the store's connection, which the run may hold
/// for a transaction), and its first end is written by row id, with no tombstones or retention
/// to apply. A name leaves at its first record, or when it is forgotten; so the set holds at
/// most the sources in flight.
final class FreshSources: Sendable {
  private let ids = TSanVisibleMutex([String: Int64]())

  /// Notes `ids` of sources just inserted.
  func insert(_ names: [String], ids inserted: [Int64]) {
    ids.withLock { ids in
      for (name, id) in zip(names, inserted) { ids[name] = id }
    }
  }

  /// Whether `name` was inserted by this store and not recorded since.
  func contains(_ name: String) -> Bool {
    ids.withLock { $0[name] != nil }
  }

  /// The row id of `name` if it is fresh, which it no longer is after this call.
  func take(_ name: String) -> Int64? {
    ids.withLock { $0.removeValue(forKey: name) }
  }
}
