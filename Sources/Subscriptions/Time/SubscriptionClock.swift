#if canImport(Glibc)
  import Glibc
#endif

/// Time in the subscription layer is one type, `Duration`: an interval is a `Duration`, and a
/// moment is the `Duration` since 1970-01-01T00:00:00Z (UTC). What a store keeps (next checks,
/// holds, when an item was last seen) is whole seconds of it.
///
/// The clock is injected (a run's `now` comes from it and nowhere else), so that a test can set
/// the moment a run happens at, and the scheduler itself never reads one: its events carry the
/// time.
public struct SubscriptionClock: Sendable {
  private let read: @Sendable () -> Duration

  /// A clock that answers `read()`.
  public init(_ read: @escaping @Sendable () -> Duration) {
    self.read = read
  }

  /// The current moment, since 1970.
  public var now: Duration { read() }

  /// The system's wall clock.
  public static let system = SubscriptionClock { wallClockNow() }

  /// Always `moment`: a run at a chosen time whose schedule does not move while it runs.
  public static func fixed(at moment: Duration) -> SubscriptionClock {
    SubscriptionClock { moment }
  }

  /// `moment` at the time of the call, then moving on with real time (a watch started at a chosen
  /// moment: a fixed time would never let anything become due).
  public static func starting(at moment: Duration) -> SubscriptionClock {
    let origin = monotonicNow()
    return SubscriptionClock { moment + (monotonicNow() - origin) }
  }

  static func wallClockNow() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }

  static func monotonicNow() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }
}
