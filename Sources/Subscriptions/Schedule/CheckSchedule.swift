/// When to look at a source again: a pure function of its state, what this pull observed, the
/// time and a random fraction (the backoff's jitter), so that every rule can be tested as a
/// table with a fixed clock. The caller draws the fraction (`randomJitter()`): the function takes
/// a number, not a generator (an `inout` of the zero-sized system generator crashes
/// ThreadSanitizer's instrumentation, Swift 6.3.1).
///
/// The rules, in order:
/// - 429 or 503: rate limiting, not a failure (`errors_in_row` unchanged). A Retry-After is
///   honoured in full up to 7 days and held for the whole host; without one, one backoff step.
/// - 410: the source is gone; it is not requested again unless forced.
/// - Any other failure: exponential backoff from the regular interval, doubling per failure in a
///   row, ±10% jitter, capped at the maximum interval.
/// - Success: the publisher's hints (RSS `ttl`, `sy:updatePeriod`/`updateFrequency`,
///   `Cache-Control: max-age`, `Expires`) are "not before" times: the largest wins. The feed's
///   observed item rate (half the mean gap between recent new items) can make it later still,
///   never earlier than a hint. Nothing known: 1 hour. Then clamped to the minimum and maximum,
///   then pushed out of the feed's skipHours/skipDays.
public enum CheckSchedule {
  /// When to check the source again, and why, after the pull `observed` at `now` (whole
  /// seconds since 1970; the decision is in whole seconds too). `jitter` is a factor near 1 (see `randomJitter()`), clamped to ±10%; passing it in
  /// keeps the function pure, so tests fix it.
  public static func next(
    state: SubscriptionState, observed: PullObservation, now: Duration,
    options: ScheduleOptions, jitter: Double
  ) -> ScheduleDecision {
    let jitter = min(max(jitter, 1 - jitterSpread), 1 + jitterSpread)
    let now = now.inWholeSeconds
    var decision = ScheduleDecision(
      nextCheckAt: now, reason: .default, errorsInRow: state.errorsInRow, gone: state.gone,
      hostHoldUntil: nil)
    if observed.cancelled {
      decision.nextCheckAt = now
      decision.reason = state.nextCheckReason ?? .default
      return decision
    }
    let regular = regularInterval(state: state, observed: nil, options: options)
    switch observed.status {
    case 429, 503:
      if let retryAfter = observed.retryAfter {
        let hold = now + min(retryAfter.inWholeSeconds, options.maxRetryAfter)
        decision.hostHoldUntil = hold
        decision.nextCheckAt = max(hold, now + options.minInterval)
        decision.reason = .retryAfter
      } else {
        decision.nextCheckAt = now + backoff(regular.seconds, step: 1, options, jitter: jitter)
        decision.reason = .errorBackoff
      }
      return decision
    case 410:
      decision.gone = true
      decision.errorsInRow += 1
      decision.nextCheckAt = now + options.maxInterval
      decision.reason = .default
      return decision
    default: break
    }
    if observed.failed {
      decision.errorsInRow += 1
      decision.nextCheckAt =
        now + backoff(regular.seconds, step: decision.errorsInRow, options, jitter: jitter)
      decision.reason = .errorBackoff
      return decision
    }
    decision.errorsInRow = 0
    decision.gone = false
    let interval = regularInterval(state: state, observed: observed, options: options)
    decision.nextCheckAt = now + interval.seconds
    decision.reason = interval.reason
    if let hints = observed.feedSchedule,
      let pushed = outOfSkipped(decision.nextCheckAt, hints: hints)
    {
      decision.nextCheckAt = pushed
      decision.reason = .skipHours
    }
    return decision
  }

  /// Backoff delays vary by this fraction either way, so that sources that failed together do
  /// not all come back in the same second.
  public static let jitterSpread = 0.1

  /// A jitter fraction for `next`, uniform in 1 ± `jitterSpread`.
  public static func randomJitter() -> Double {
    var generator = JitterGenerator()
    return Double.random(in: (1 - jitterSpread)...(1 + jitterSpread), using: &generator)
  }

  /// The interval of a healthy source, clamped, and the rule that gave it.
  static func regularInterval(
    state: SubscriptionState, observed: PullObservation?, options: ScheduleOptions
  ) -> (seconds: Duration, reason: CheckReason) {
    var best: (seconds: Duration, reason: CheckReason)?
    func consider(_ seconds: Duration?, _ reason: CheckReason) {
      guard let seconds, seconds > .zero else { return }
      if best == nil || seconds > best!.seconds { best = (seconds, reason) }
    }
    if let observed {
      consider(observed.feedSchedule?.ttlMinutes.map { .seconds(Int64($0) * 60) }, .ttl)
      consider(observed.feedSchedule.flatMap(updatePeriod), .updatePeriod)
      consider(observed.cacheMaxAge?.inWholeSeconds, .cacheControl)
      consider(observed.expiresAfter?.inWholeSeconds, .expires)
    }
    consider(ItemRate.interval(state.newItemTimes), .itemRate)
    let chosen = best ?? (options.defaultInterval, .default)
    return (min(max(chosen.seconds, options.minInterval), options.maxInterval), chosen.reason)
  }

  /// `base × 2^(step−1)`, times `jitter` (0.9–1.1), capped at the maximum interval.
  static func backoff(_ base: Duration, step: Int, _ options: ScheduleOptions, jitter: Double)
    -> Duration
  {
    let doublings = min(max(step - 1, 0), 40)
    let maximum = options.maxInterval.inSeconds
    let raw = min(base.inSeconds * Double(1 << doublings), maximum)
    return min(.seconds(Int64((raw * jitter).rounded())), options.maxInterval)
  }

  static func updatePeriod(_ hints: FeedScheduleHints) -> Duration? {
    let periods: [String: Int64] = [
      "hourly": 3600, "daily": 86_400, "weekly": 7 * 86_400, "monthly": 30 * 86_400,
      "yearly": 365 * 86_400,
    ]
    guard let period = hints.updatePeriod.flatMap({ periods[$0.lowercased()] }) else {
      return hints.updateFrequency.map { .seconds(86_400 / Int64(max(1, $0))) }
    }
    return .seconds(period / Int64(max(1, hints.updateFrequency ?? 1)))
  }

  /// The start of the first hour at or after `moment` that is neither a skipped hour nor on a
  /// skipped day (UTC); nil when `moment` is not skipped (or everything is).
  static func outOfSkipped(_ moment: Duration, hints: FeedScheduleHints) -> Duration? {
    let time = moment.wholeSeconds
    func skipped(_ t: Int64) -> Bool {
      let hour = Int((t / 3600) % 24)
      // 1970-01-01 was a Thursday (4).
      let weekday = Int((t / 86_400 + 4) % 7)
      return hints.skipHours.contains(hour) || hints.skipDays.contains(weekday)
    }
    guard skipped(time) else { return nil }
    var hourStart = time - time % 3600
    for _ in 0..<(24 * 8) {
      hourStart += 3600
      if !skipped(hourStart) { return .seconds(hourStart) }
    }
    return nil
  }
}
