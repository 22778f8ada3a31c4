/// The capability of a store that reads every source's schedule in one sequential pass: what a
/// run over a long list (`--due -i` of a million sources, a watch's start) asks once, where a
/// claim's look at each name costs a random read of the name's index and row (`ScheduleSnapshot`).
protocol ScheduleScanningStore: LeasingSubscriptionStore {
  /// About how many sources the store holds, without reading them (whether a scan is worth it).
  func sourceCountEstimate() throws(StoreError) -> Int

  /// Calls `body` with the name (its UTF-8 bytes, valid only during the call), next check
  /// (seconds since 1970) and its reason of each source that no other process's live lease
  /// holds, in the store's order, in one read, until `body` returns false. Safe on a thread of
  /// its own while other calls use the store: the scan reads through a connection of its own
  /// where the store can open one, so that a run's claims go on meanwhile.
  func forEachFreeSchedule(
    _ body: (UnsafeBufferPointer<UInt8>, _ nextCheck: Int64, _ reason: CheckReason?) -> Bool
  ) throws(StoreError)
}
