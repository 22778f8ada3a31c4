import FeedPull

/// What happens to a `PullScheduler`: the events its owner feeds it, each with the time.
enum SchedulerEvent: Sendable {
  /// The run begins.
  case start
  /// The one timer fired (or the owner wants the scheduler to look again).
  case timer
  /// The store answered the last `claim` or `claimDue`: for `claim`, one answer for each name of
  /// a prefix of those asked; for `claimDue`, the granted states. `holds`: the Retry-After holds
  /// the store keeps for the hosts of the granted sources.
  case claimed([ClaimAnswer], holds: [String: Duration])
  /// The last `claim` or `claimDue` failed: the store is unreachable or refused.
  case claimFailed(StoreError)
  /// The store said when a source can next be claimed (`askNextClaimable`); nil: it has none.
  case nextClaimable(Duration?)
  /// A started pull was not started after all, because the consumer is behind; it waits.
  case startRefused(SubscriptionState)
  /// The consumer caught up: pulls may start again.
  case resumed
  /// A pull's transfer is over and its end is being recorded: its slot is free, its host's
  /// Retry-After (if it set one) holds from now; `pullEnded` follows once it is recorded.
  case transferEnded(source: String, hostHold: PullEnd.HostHold?)
  /// A pull ended, its end recorded (or not) and written.
  case pullEnded(PullEnd)
  /// The list of named sources was read again.
  case reload(SourceList)
  /// Stop: pulls in flight are cancelled, nothing more starts.
  case stop
  /// The output stopped taking records: stop, and write nothing more.
  case outputFailed
}

/// What a `PullScheduler` asks its owner to do, in order.
enum SchedulerAction: Sendable, Equatable {
  /// Claim these sources, in order (`LeasingSubscriptionStore.claim`); answer `claimed`.
  case claim([String], dueOnly: Bool, grantLimit: Int)
  /// Claim up to this many due sources of the whole store; answer `claimed`.
  case claimDue(limit: Int)
  /// Ask the store when a source can next be claimed; answer `nextClaimable`.
  case askNextClaimable
  /// Start pulling a claimed source. Boxed (`indirect`), as a claim's answer is: a planned
  /// pull holds a whole state, and inline every action of a step (mostly skipped ends, a
  /// thousand to a claim in a `--due -i` pass) took its size.
  indirect case start(PlannedPull)
  /// Write the `end` of a source that is not pulled.
  case skip(SkippedEnd)
  /// Move a source's next check without pulling it, and give its lease back.
  case postpone(String, until: Duration, reason: CheckReason)
  /// Give back the leases of claimed sources that will not be pulled.
  case release([String])
  /// Extend the leases held on these sources (those claimed and waiting, and in flight).
  case renewLeases([String])
  /// Cancel every pull in flight (each ends `cancelled`).
  case cancelPulls
  /// Arm the one timer for the earlier of these moments (nil: disarm it).
  case wake(SchedulerWake?)
  /// Tell the user something (`-v`, an embedder's log).
  case notice(SubscriptionNotice)
  /// The run is over: a pass has pulled everything, or a stop has finished; with the store's
  /// error when a pass gave up waiting for it.
  case finish(StoreError?)
}

/// The time of an event, in the scheduler's two measures: the schedule's clock (due times, as
/// the store keeps them; a test may fix it) and the time elapsed on a monotonic clock (pauses:
/// a store's retry, lease renewal), which always moves.
struct SchedulerTime: Sendable, Equatable {
  var clock: Duration
  var elapsed: Duration
}

/// When the one timer is to fire: at a moment of the schedule's clock, or after a pause on the
/// elapsed time, whichever comes first.
struct SchedulerWake: Sendable, Equatable {
  var clock: Duration?
  var elapsed: Duration?
}

/// A claimed source to pull.
struct PlannedPull: Sendable, Equatable {
  /// Its state as claimed.
  var state: SubscriptionState
  /// Sent without validators (the daily unconditional pull).
  var unconditional: Bool
}

/// The `end` of a source that is not pulled, and why.
struct SkippedEnd: Sendable, Equatable {
  /// Why the source is not pulled.
  enum Why: Sendable, Equatable {
    /// Named, and not due yet: `ok`, `skipped: "not_due"`.
    case notDue
    /// Another live process holds it: `ok`, `skipped: "in_progress"`.
    case inProgress
    /// It answered 410: `deferred` until forced.
    case gone
    /// Its host asked to wait (Retry-After): `deferred`.
    case held(host: String)
    /// The run stopped before it started.
    case cancelled
  }

  var source: String
  var why: Why
  var nextCheckAt: Duration?
  var reason: CheckReason?
  var errorsInRow: Int?
  var movedTo: String?
}

/// A pull's end, as the scheduler needs it.
struct PullEnd: Sendable, Equatable {
  var source: String
  /// Its next check, as recorded; nil when the end could not be recorded.
  var nextCheckAt: Duration?
  var reason: CheckReason?
  /// A Retry-After the end set: every source of `host` waits until then.
  var hostHold: HostHold?
  /// The source answered 410 (and was not forced): it leaves a watch's schedule.
  var gone: Bool

  /// A host's hold.
  struct HostHold: Sendable, Equatable {
    var host: String
    var until: Duration
  }
}

/// What a run tells its user besides records (`-v` lines, an embedder's log).
public enum SubscriptionNotice: Sendable, Equatable {
  /// A named source is not due: it is next checked at `until` (`reason`).
  case notDue(source: String, until: Duration, reason: CheckReason?)
  /// Nothing is being pulled: the run sleeps until `until` (nil: until something changes),
  /// because of `cause`.
  case idle(until: Duration?, cause: WakeCause)
  /// The list was read again: `added` sources are new to it, `removed` left it, `count` remain.
  case reloaded(added: Int, removed: Int, count: Int)
  /// The store could not be reached or refused; the run keeps what it holds and asks again.
  case storeFailed(StoreError)
  /// The store answers again.
  case storeBack
  /// A source's end could not be recorded: its items will be delivered again.
  case recordFailed(StoreError)
}

/// Why a run wakes next.
public enum WakeCause: Sendable, Equatable {
  /// `source` is due then (`reason`: what set its next check).
  case check(source: String, reason: CheckReason?)
  /// Another process's lease on `source` ends then.
  case leaseEnds(source: String)
  /// A source of the shared store is due then, or that much time has passed without one.
  case storeCheck
  /// The leases held must be renewed.
  case leaseRenewal
  /// The store failed: asking again.
  case storeRetry
  /// Nothing is scheduled.
  case nothing
}
