/// The capability of a store that several processes share (one SQLite file, or one PostgreSQL
/// database for workers on many machines): a source is pulled by at most one of them at a time,
/// because pulling it takes a lease in the store. A lease lasts `leaseDuration` unless renewed;
/// the holder renews its leases while it lives, so a process that dies (`kill -9`) loses them
/// within that time and the sources are claimed again. Recording a source's end gives its lease
/// back.
///
/// Moments given to these methods are the caller's (`SubscriptionClock`: a source is due when
/// its next check is at or before `now`); how long a lease lasts is measured on the store's own
/// clock (the machine's for SQLite, the database server's for PostgreSQL), so that processes
/// whose clocks differ still agree on it.
public protocol LeasingSubscriptionStore: SubscriptionStore {
  /// How long a claim holds without renewal.
  var leaseDuration: Duration { get }

  /// Claims `sources`, in order, until `grantLimit` of them are granted: unknown ones are
  /// registered (and due; a store may register all of `sources` at once, looked at or not);
  /// one that another live lease holds is answered `leased`; with
  /// `dueOnly`, one whose next check is after `now` is answered `notDue`; the rest are leased to
  /// the caller and answered `granted`. Returns one answer for each source looked at, in order:
  /// a prefix of `sources` (shorter once `grantLimit` grants are made).
  func claim(_ sources: [String], at now: Duration, dueOnly: Bool, grantLimit: Int)
    throws(StoreError) -> [ClaimAnswer]

  /// Claims up to `limit` due sources that no live lease holds, earliest first.
  func claimDue(at now: Duration, limit: Int) throws(StoreError) -> [SubscriptionState]

  /// Extends this store's leases on `sources` by `leaseDuration` from now (a run knows what it
  /// holds: the few sources claimed and waiting or in flight).
  func renewLeases(of sources: [String]) throws(StoreError)

  /// Gives back this store's leases on `sources`, which it will not pull after all.
  func releaseLeases(of sources: [String]) throws(StoreError)

  /// Moves `source`'s next check to `until` without a pull (its host asked to wait, or it is
  /// gone), with `reason`, and gives its lease back: a pass does not meet it again.
  func postpone(_ source: String, until: Duration, reason: CheckReason) throws(StoreError)

  /// The earliest moment at or after which some source can be claimed: its next check, or the
  /// end of a lease that holds it; nil when the store has no sources.
  func nextClaimable(after now: Duration) throws(StoreError) -> Duration?
}

/// A store's answer for one source of a `claim`.
public enum ClaimAnswer: Sendable, Equatable {
  /// Leased to the caller, which pulls it: its state. Boxed (`indirect`): a state is some 230
  /// bytes, and inline every answer of a claim took that much, where most are `notDue`.
  indirect case granted(SubscriptionState)
  /// Not due until `at` (`reason`); nothing leased.
  case notDue(at: Duration, reason: CheckReason?)
  /// Another process holds it until about `until` (on the caller's clock).
  case leased(until: Duration)
}

/// The capability of a store that spaces request starts to one host across every process that
/// shares it (`--host-delay` for workers on one PostgreSQL database).
public protocol HostPacingStore: SubscriptionStore {
  /// Reserves the next request start for `host`, `spacing` after the last one any process
  /// reserved (or now, when that is past), and returns how long to wait before starting it.
  func reserveStart(host: String, spacing: Duration) throws(StoreError) -> Duration
}
