/// The limits of the schedule (`--min-interval`, `--max-interval`).
public struct ScheduleOptions: Sendable, Equatable {
  /// No check comes sooner after the last one (`--min-interval`, 15 minutes), except after a
  /// Retry-After, which is kept in full.
  public var minInterval: Duration = .seconds(15 * 60)
  /// No check comes later than this after the last one (`--max-interval`, 24 hours); also the
  /// cap of the error backoff.
  public var maxInterval: Duration = .seconds(24 * 3600)
  /// The interval when nothing else speaks (then clamped).
  public var defaultInterval: Duration = .seconds(3600)
  /// The longest Retry-After honoured; longer ones are cut to this.
  public var maxRetryAfter: Duration = .seconds(7 * 86_400)
  /// The command line's defaults: 15 minutes to 24 hours, 1 hour when nothing speaks, 7 days of
  /// Retry-After at most.
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
  /// From `Cache-Control: max-age`; nil when the response had none.
  public var cacheMaxAge: Duration?
  /// From now until the `Expires` date, never negative; nil when the response had none.
  public var expiresAfter: Duration?
  /// From the `Retry-After` of a 429 or 503; nil otherwise.
  public var retryAfter: Duration?
  /// What the feed says of its own schedule; nil when the body was not parsed (a 304, a failure)
  /// or said nothing.
  public var feedSchedule: FeedScheduleHints?
  /// An observation of a pull that ended with `status` (nil: no response); set the rest as known.
  public init(status: Int? = nil) { self.status = status }
}

/// The parts of the feed's own schedule the scheduler reads (RSS ttl, skipHours, skipDays,
/// the Syndication module's period and frequency).
public struct FeedScheduleHints: Sendable, Equatable {
  /// Minutes, from RSS `ttl`: the feed asks not to be fetched sooner.
  public var ttlMinutes: Int?
  /// Hours of the day (0–23, UTC) in which the feed asks not to be fetched (`skipHours`).
  public var skipHours: Set<Int> = []
  /// 0 = Sunday … 6 = Saturday.
  public var skipDays: Set<Int> = []
  /// `sy:updatePeriod`: `hourly`, `daily`, `weekly`, `monthly` or `yearly`; nil when absent.
  public var updatePeriod: String?
  /// `sy:updateFrequency`: how many updates per `updatePeriod` (1 when absent).
  public var updateFrequency: Int?
  /// No hints: nothing is skipped, nothing delays a check.
  public init() {}
}

/// The schedule's answer.
public struct ScheduleDecision: Sendable, Equatable {
  /// When the source is due again (`next_check_at`), whole seconds since 1970.
  public var nextCheckAt: Duration
  /// What set `nextCheckAt` (`next_check_reason`).
  public var reason: CheckReason
  /// Failures in a row after this pull: 0 after a success, unchanged after a 429 or 503.
  public var errorsInRow: Int
  /// Set by a 410: the source is not requested again unless forced.
  public var gone: Bool
  /// Set by a Retry-After: every source of the host waits until then.
  public var hostHoldUntil: Duration?
}
