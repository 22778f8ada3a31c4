/// The limits of the schedule (`--min-interval`, `--max-interval`), in seconds.
public struct ScheduleOptions: Sendable, Equatable {
  public var minInterval: Int64 = 15 * 60
  public var maxInterval: Int64 = 24 * 3600
  /// The interval when nothing else speaks (then clamped).
  public var defaultInterval: Int64 = 3600
  /// The longest Retry-After honoured; longer ones are cut to this.
  public var maxRetryAfter: Int64 = 7 * 86_400
  public init() {}
}

/// What one pull observed that bears on the next check.
public struct PullObservation: Sendable, Equatable {
  /// The final HTTP status (also of a failed response); nil when none arrived.
  public var status: Int?
  /// Nil when the pull succeeded.
  public var failed = false
  /// Cancelled before its end: it stays due.
  public var cancelled = false
  public var cacheMaxAge: Int?
  public var expiresAfter: Int?
  public var retryAfter: Int?
  public var feedSchedule: FeedScheduleHints?
  public init(status: Int? = nil) { self.status = status }
}

/// The parts of the feed's own schedule the scheduler reads (RSS ttl, skipHours, skipDays,
/// the Syndication module's period and frequency).
public struct FeedScheduleHints: Sendable, Equatable {
  public var ttlMinutes: Int?
  public var skipHours: Set<Int> = []
  /// 0 = Sunday … 6 = Saturday.
  public var skipDays: Set<Int> = []
  public var updatePeriod: String?
  public var updateFrequency: Int?
  public init() {}
}

/// The schedule's answer.
public struct ScheduleDecision: Sendable, Equatable {
  public var nextCheckAt: Int64
  public var reason: CheckReason
  public var errorsInRow: Int
  /// Set by a 410: the source is not requested again unless forced.
  public var gone: Bool
  /// Set by a Retry-After: every source of the host waits until then.
  public var hostHoldUntil: Int64?
}
