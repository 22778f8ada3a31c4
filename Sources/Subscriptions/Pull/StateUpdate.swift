import FeedPull
import HTTPWorker

/// A source's new state after one pull: validators, the redirect count, the identity mode, the
/// item-rate summary and the schedule's decision.
enum StateUpdate {
  /// Pulls in a row that must see the same permanent redirect before it is adopted.
  static let redirectsToAdopt = 3

  static func after(
    _ end: EndRecord, tracker: SourceTracker, progress: SourceTracker.Progress, now: Int64,
    options: SubscriptionPullOptions
  ) -> (state: SubscriptionState, hostHold: (host: String, until: Int64)?) {
    var state = tracker.state
    let status = end.status ?? end.error?.status
    let cancelled = end.error?.kind == .cancelled
    state.lastCheckAt = now
    if end.ok && status == 200 {
      state.etag = end.etag
      state.lastModified = end.lastModified
      state.bodyDigest = end.bodyDigest
    }
    if end.ok && tracker.unconditional { state.lastUnconditionalAt = now }
    if end.wellformed != nil && !cancelled {
      state.pulls += 1
      state.identityMode = progress.matcher.nextMode
    }
    if !progress.newItemTimes.isEmpty {
      state.newItemTimes = ItemRate.adding(progress.newItemTimes, to: state.newItemTimes)
    }
    if end.ok {
      adoptRedirect(end, into: &state)
    }
    var observation = PullObservation(status: status)
    observation.failed = !end.ok
    observation.cancelled = cancelled
    observation.cacheMaxAge = end.cacheMaxAge
    observation.expiresAfter = end.expiresAfter
    observation.retryAfter = end.retryAfter
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
