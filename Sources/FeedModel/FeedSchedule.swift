/// What a feed says about how often it changes: RSS `ttl`, `skipHours` and `skipDays`, and the
/// Syndication module's `updatePeriod`, `updateFrequency` and `updateBase`.
///
/// The parser fills it from the document; a subscriber's scheduler reads it to decide when to
/// look again, so that a feed that asks to be left alone at night, or updates daily, is not
/// asked every few minutes.
public struct FeedSchedule: Sendable, Equatable, Hashable {
  /// Minutes the feed may be cached (RSS `ttl`).
  public var ttl: Int?
  /// Hours (0–23, GMT) in which the feed asks not to be read (RSS `skipHours`).
  public var skipHours: [Int] = []
  /// English day names with a capital first letter (`Sunday`) on which the feed asks not to be
  /// read (RSS `skipDays`).
  public var skipDays: [String] = []
  /// `hourly`, `daily`, `weekly`, `monthly` or `yearly` (`sy:updatePeriod`).
  public var updatePeriod: String?
  /// Updates per period (`sy:updateFrequency`).
  public var updateFrequency: Int?
  /// The date the period counts from, as given (`sy:updateBase`).
  public var updateBase: String?

  /// A schedule as the feed gave it; all parts optional.
  public init(
    ttl: Int? = nil, skipHours: [Int] = [], skipDays: [String] = [], updatePeriod: String? = nil,
    updateFrequency: Int? = nil, updateBase: String? = nil
  ) {
    self.ttl = ttl
    self.skipHours = skipHours
    self.skipDays = skipDays
    self.updatePeriod = updatePeriod
    self.updateFrequency = updateFrequency
    self.updateBase = updateBase
  }

  /// True when the feed said nothing about its schedule.
  public var isEmpty: Bool {
    ttl == nil && skipHours.isEmpty && skipDays.isEmpty && updatePeriod == nil
      && updateFrequency == nil && updateBase == nil
  }
}
