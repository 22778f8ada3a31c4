import FeedPull
import HTTPWorker

/// A source's new state after one pull: validators, the redirect count, the identity mode, the
/// item-rate summary and the schedule's decision. A pure function of the state, the `end`, what
/// the pull saw and the time.
enum StateUpdate {
  /// Pulls in a row that must see the same permanent redirect before it is adopted.
  static let redirectsToAdopt = 3

  /// What this pull saw of its items.
  struct Seen {
    var nextMode: IdentityMode?
    var newItemTimes: [Duration] = []
  }

  static func after(
    _ end: EndRecord, pulled planned: PlannedPull, seen: Seen, now: Duration,
    options: SubscriptionPullOptions
  ) -> (state: SubscriptionState, hostHold: (host: String, until: Duration)?) {
    let now = now.inWholeSeconds
    var state = planned.state
    let status = end.status ?? end.error?.status
    let cancelled = end.error?.kind == .cancelled
    state.lastCheckAt = now
    if end.ok && status == 200 {
      state.etag = end.etag
      state.lastModified = end.lastModified
      state.bodyDigest = end.bodyDigest
    }
    if end.ok && planned.unconditional { state.lastUnconditionalAt = now }
    if end.wellformed != nil && !cancelled {
      state.pulls += 1
      if let mode = seen.nextMode { state.identityMode = mode }
    }
    if !seen.newItemTimes.isEmpty {
      state.newItemTimes = ItemRate.adding(seen.newItemTimes, to: state.newItemTimes)
    }
    if end.ok {
      adoptRedirect(end, into: &state)
    }
    var observation = PullObservation(status: status)
    observation.failed = !end.ok
    observation.cancelled = cancelled
    observation.cacheMaxAge = end.cacheMaxAge.map { .seconds($0) }
    observation.expiresAfter = end.expiresAfter.map { .seconds($0) }
    observation.retryAfter = end.retryAfter.map { .seconds($0) }
    observation.feedSchedule = end.feedSchedule.map(FeedScheduleHints.init)
    let decision = CheckSchedule.next(
      state: state, observed: observation, now: now, options: options.schedule,
      jitter: CheckSchedule.randomJitter())
    state.nextCheckAt = decision.nextCheckAt
    state.nextCheckReason = decision.reason
    state.errorsInRow = decision.errorsInRow
    state.gone = decision.gone
    let hold = decision.hostHoldUntil.map {
      (host: PoliteHost.key(forURL: state.requestURL) ?? state.requestURL, until: $0)
    }
    return (state, hold)
  }

  /// Counts pulls in a row that saw the same permanent redirect; adopts it at the third. A
  /// redirect from https to http (followed with `allowsDowngrade`) is never adopted: every
  /// later pull would go in plain text.
  static func adoptRedirect(_ end: EndRecord, into state: inout SubscriptionState) {
    guard end.permanentRedirect, let target = end.url, target != state.requestURL,
      !RedirectPolicy.isDowngrade(from: state.requestURL, to: target)
    else {
      state.redirectTarget = nil
      state.redirectCount = 0
      return
    }
    if state.redirectTarget == target {
      state.redirectCount += 1
    } else {
      state.redirectTarget = target
      state.redirectCount = 1
    }
    if state.redirectCount >= redirectsToAdopt {
      state.movedTo = target
      state.redirectTarget = nil
      state.redirectCount = 0
    }
  }
}
