import FeedPull
import Testing

@testable import Subscriptions

/// A seeded generator, so jitter is the same on every run.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The schedule as a table: a fixed clock, jitter drawn from a seeded generator, no sockets.
@Suite struct CheckScheduleTests {
  /// 2026-12-01T12:00:00Z, a Tuesday.
  static let now: Duration = .seconds(1_796_126_400)
  static let options = ScheduleOptions()

  static func decide(
    _ observed: PullObservation, state: SubscriptionState = SubscriptionState(source: "s"),
    options: ScheduleOptions = options, seed: UInt64 = 1
  ) -> ScheduleDecision {
    var random = SplitMix64(state: seed)
    return CheckSchedule.next(
      state: state, observed: observed, now: now, options: options,
      jitter: Double.random(in: 0.9...1.1, using: &random))
  }

  static func ok(_ change: (inout PullObservation) -> Void = { _ in }) -> PullObservation {
    var observed = PullObservation(status: 200)
    change(&observed)
    return observed
  }

  static func hints(_ change: (inout FeedScheduleHints) -> Void) -> FeedScheduleHints {
    var hints = FeedScheduleHints()
    change(&hints)
    return hints
  }

  struct Row: Sendable, CustomStringConvertible {
    var name: String
    var observed: PullObservation
    var state = SubscriptionState(source: "s")
    var interval: Int64
    var reason: CheckReason
    var description: String { name }
  }

  static let rows: [Row] = [
    Row(name: "nothing known: 1 hour", observed: ok(), interval: 3600, reason: .default),
    Row(
      name: "RSS ttl 120 minutes", observed: ok { $0.feedSchedule = hints { $0.ttlMinutes = 120 } },
      interval: 7200, reason: .ttl),
    Row(
      name: "Cache-Control max-age 2 hours", observed: ok { $0.cacheMaxAge = .seconds(7200) },
      interval: 7200, reason: .cacheControl),
    Row(
      name: "Expires in 3 hours", observed: ok { $0.expiresAfter = .seconds(10_800) },
      interval: 10_800,
      reason: .expires),
    Row(
      name: "sy:updatePeriod daily, frequency 2",
      observed: ok {
        $0.feedSchedule = hints {
          $0.updatePeriod = "daily"
          $0.updateFrequency = 2
        }
      }, interval: 43_200, reason: .updatePeriod),
    Row(
      name: "the largest hint wins",
      observed: ok {
        $0.cacheMaxAge = .seconds(1800)
        $0.feedSchedule = hints { $0.ttlMinutes = 180 }
      }, interval: 10_800, reason: .ttl),
    Row(
      name: "max-age 60 s clamped up to 15 minutes", observed: ok { $0.cacheMaxAge = .seconds(60) },
      interval: 900, reason: .cacheControl),
    Row(
      name: "updatePeriod yearly clamped down to 24 hours",
      observed: ok { $0.feedSchedule = hints { $0.updatePeriod = "yearly" } }, interval: 86_400,
      reason: .updatePeriod),
    Row(
      name: "posting every 2 hours: checked hourly", observed: ok(),
      state: stateWithItems(every: 7200), interval: 3600, reason: .itemRate),
    Row(
      name: "posting monthly: the maximum", observed: ok(),
      state: stateWithItems(every: 30 * 86_400), interval: 86_400, reason: .itemRate),
    Row(
      name: "a 304 is a success", observed: PullObservation(status: 304), interval: 3600,
      reason: .default),
  ]

  static func stateWithItems(every gap: Int64) -> SubscriptionState {
    var state = SubscriptionState(source: "s")
    state.newItemTimes = (0..<8).map { now - .seconds(Int64($0) * gap) }.reversed()
    return state
  }

  @Test(arguments: rows) func healthySources(_ row: Row) {
    let decision = Self.decide(row.observed, state: row.state)
    #expect(decision.nextCheckAt - Self.now == .seconds(row.interval))
    #expect(decision.reason == row.reason)
    #expect(decision.errorsInRow == 0)
    #expect(decision.hostHoldUntil == nil)
  }

  @Test func anHourlyPosterIsCheckedMoreOftenThanAMonthlyOne() {
    let hourly = Self.decide(Self.ok(), state: Self.stateWithItems(every: 3600))
    let monthly = Self.decide(Self.ok(), state: Self.stateWithItems(every: 30 * 86_400))
    #expect(hourly.nextCheckAt < monthly.nextCheckAt)
  }

  @Test func customClampsApply() {
    var options = ScheduleOptions()
    options.minInterval = .seconds(2 * 3600)
    options.maxInterval = .seconds(4 * 3600)
    #expect(Self.decide(Self.ok(), options: options).nextCheckAt - Self.now == .seconds(2 * 3600))
    let long = Self.ok { $0.cacheMaxAge = .seconds(86_400) }
    #expect(Self.decide(long, options: options).nextCheckAt - Self.now == .seconds(4 * 3600))
  }

  @Test func errorsBackOffExponentiallyWithJitterUpToTheMaximum() {
    var state = SubscriptionState(source: "s")
    var failed = PullObservation(status: 500)
    failed.failed = true
    var previousBase: Int64 = 0
    for step in 1...10 {
      let decision = Self.decide(failed, state: state, seed: UInt64(step))
      #expect(decision.errorsInRow == step)
      #expect(decision.reason == .errorBackoff)
      let base = min(3600 * Int64(1 << (step - 1)), 86_400)
      let delay = (decision.nextCheckAt - Self.now).wholeSeconds
      #expect(delay >= base * 9 / 10 && delay <= min(base * 11 / 10, 86_400), "step \(step)")
      #expect(base >= previousBase)
      previousBase = base
      state.errorsInRow = decision.errorsInRow
    }
  }

  @Test func jitterStaysWithinTenPercentAndVaries() {
    var failed = PullObservation()
    failed.failed = true
    let delays = (0..<200).map {
      (Self.decide(failed, seed: UInt64($0)).nextCheckAt - Self.now).wholeSeconds
    }
    #expect(delays.allSatisfy { $0 >= 3240 && $0 <= 3960 })
    #expect(Set(delays).count > 50)
  }

  @Test func jitterOutsideTenPercentIsClamped() {
    var failed = PullObservation()
    failed.failed = true
    let state = SubscriptionState(source: "s")
    for (jitter, delay) in [(0.5, 3240), (0.9, 3240), (1.0, 3600), (1.1, 3960), (3.0, 3960)] {
      let decision = CheckSchedule.next(
        state: state, observed: failed, now: Self.now, options: Self.options, jitter: jitter)
      #expect(decision.nextCheckAt - Self.now == .seconds(delay), "jitter \(jitter)")
    }
  }

  @Test func randomJitterStaysWithinTenPercent() {
    let draws = (0..<1000).map { _ in CheckSchedule.randomJitter() }
    #expect(draws.allSatisfy { $0 >= 0.9 && $0 <= 1.1 })
    #expect(Set(draws).count > 900)
  }

  @Test func aSuccessResetsTheErrorCount() {
    var state = SubscriptionState(source: "s")
    state.errorsInRow = 4
    #expect(Self.decide(Self.ok(), state: state).errorsInRow == 0)
  }

  @Test(arguments: [429, 503]) func rateLimitingIsNotAFailure(_ status: Int) {
    var state = SubscriptionState(source: "s")
    state.errorsInRow = 2
    var observed = PullObservation(status: status)
    observed.failed = true
    observed.retryAfter = .seconds(3600)
    let decision = Self.decide(observed, state: state)
    #expect(decision.errorsInRow == 2)
    #expect(decision.reason == .retryAfter)
    #expect(decision.hostHoldUntil == Self.now + .seconds(3600))
    #expect(decision.nextCheckAt == Self.now + .seconds(3600))
  }

  @Test func retryAfterIsHonouredInFullBeyondTheMaximumIntervalUpToSevenDays() {
    var observed = PullObservation(status: 429)
    observed.failed = true
    observed.retryAfter = .seconds(3 * 86_400)
    #expect(Self.decide(observed).hostHoldUntil == Self.now + .seconds(3 * 86_400))
    observed.retryAfter = .seconds(30 * 86_400)
    #expect(Self.decide(observed).hostHoldUntil == Self.now + .seconds(7 * 86_400))
    #expect(Self.decide(observed).nextCheckAt == Self.now + .seconds(7 * 86_400))
  }

  @Test func aShortRetryAfterStillWaitsTheMinimumInterval() {
    var observed = PullObservation(status: 503)
    observed.failed = true
    observed.retryAfter = .seconds(30)
    let decision = Self.decide(observed)
    #expect(decision.hostHoldUntil == Self.now + .seconds(30))
    #expect(decision.nextCheckAt == Self.now + .seconds(900))
  }

  @Test func goneMarksTheSource() {
    var observed = PullObservation(status: 410)
    observed.failed = true
    let decision = Self.decide(observed)
    #expect(decision.gone)
    #expect(decision.errorsInRow == 1)
  }

  @Test func skipHoursPushTheCheckOutOfTheSkippedHours() {
    // Now is 12:00Z; the default check at 13:00 falls in the skipped 13–15.
    let observed = Self.ok { $0.feedSchedule = Self.hints { $0.skipHours = [13, 14, 15] } }
    let decision = Self.decide(observed)
    #expect(decision.reason == .skipHours)
    #expect(decision.nextCheckAt == Self.now + .seconds(4 * 3600))
  }

  @Test func skipDaysPushTheCheckToTheNextDay() {
    // Tuesday 12:00Z + 1 h, with Tuesday skipped: Wednesday 00:00Z.
    let observed = Self.ok { $0.feedSchedule = Self.hints { $0.skipDays = [2] } }
    let decision = Self.decide(observed)
    #expect(decision.reason == .skipHours)
    #expect(decision.nextCheckAt == Self.now + .seconds(12 * 3600))
  }

  @Test func aCancelledSourceStaysDue() {
    var observed = PullObservation()
    observed.failed = true
    observed.cancelled = true
    #expect(Self.decide(observed).nextCheckAt == Self.now)
  }

  @Test func everyReasonHasARow() {
    var reasons = Set(Self.rows.map(\.reason))
    reasons.formUnion([.retryAfter, .errorBackoff, .skipHours])
    #expect(reasons == Set(CheckReason.allCases))
    #expect(
      CheckReason.allCases.map(\.rawValue).sorted()
        == [
          "cache_control", "default", "error_backoff", "expires", "item_rate", "retry_after",
          "skip_hours", "ttl", "update_period",
        ])
  }
}
