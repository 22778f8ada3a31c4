import FeedPull
import FeedPullSupport
import HTTPWorker

/// One subscribed source during a pull: its state as it came in, the matcher that judges its
/// items as they are parsed, and the `seen` items held for `--all` until the body's end tells
/// whether it was the same body as last time.
final class SourceTracker: Sendable {
  struct Progress {
    var matcher: ItemMatcher
    var heldSeen: [ItemRecord] = []
    var written = 0
    var newItems = 0
    var updatedItems = 0
    var newItemTimes: [Int64] = []
  }

  let state: SubscriptionState
  /// The URL this pull requests (`state.requestURL`, unless another source already does).
  let requestURL: String
  /// True when this pull sends no validators (the daily unconditional pull).
  let unconditional: Bool
  let progress: TSanVisibleMutex<Progress>

  init(
    state: SubscriptionState, requestURL: String, ledger: [RememberedItem], unconditional: Bool,
    now: Int64
  ) {
    self.state = state
    self.requestURL = requestURL
    self.unconditional = unconditional
    progress = TSanVisibleMutex(
      Progress(
        matcher: ItemMatcher(
          mode: state.identityMode, remembered: ledger, pull: state.pulls + 1, now: now)))
  }

  /// The request this source makes: its current URL, validators unless unconditional, and a
  /// body digest.
  var pullSource: PullSource {
    var source = PullSource(requestURL)
    if !unconditional {
      source.ifNoneMatch = state.etag
      source.ifModifiedSince = state.lastModified
    }
    source.wantsBodyDigest = true
    return source
  }
}
