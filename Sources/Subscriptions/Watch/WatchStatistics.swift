/// An operator's view of a running watch (or pass), without scraping logs: what it holds, what it is
/// doing, what it has delivered since it started, and when it next wakes.
public struct WatchStatistics: Sendable, Equatable {
  /// Sources being watched.
  public var sources = 0
  /// Sources whose check is due and waiting for a transfer slot.
  public var due = 0
  /// Sources being pulled now.
  public var inFlight = 0
  /// Pulls ended since the watch started.
  public var pulls = 0
  /// Item records written since the watch started (new and updated ones).
  public var items = 0
  /// Body bytes read since the watch started.
  public var bytes: Int64 = 0
  /// Failed ends since the watch started, by error kind (`http`, `timeout`, `deferred`, …).
  public var errors: [String: Int] = [:]
  /// The earliest next check of a named source not in flight; nil when none.
  public var nextDue: Duration?

  public init() {}
}
