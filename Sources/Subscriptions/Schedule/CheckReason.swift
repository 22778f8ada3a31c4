/// Why a source's next check is when it is: the rule of the schedule that decided it.
public enum CheckReason: String, Codable, Sendable, CaseIterable {
  /// RSS `ttl`: the feed asked not to be fetched sooner.
  case ttl
  /// The response's `Cache-Control: max-age`.
  case cacheControl = "cache_control"
  /// The response's `Expires` date.
  case expires
  /// A 429 or 503's `Retry-After`, kept in full up to 7 days.
  case retryAfter = "retry_after"
  /// The Syndication module's `updatePeriod` and `updateFrequency`.
  case updatePeriod = "update_period"
  /// Moved to the next hour the feed's `skipHours` and `skipDays` allow.
  case skipHours = "skip_hours"
  /// How often the feed has posted new items lately.
  case itemRate = "item_rate"
  /// After a failure: the interval doubled per failure in a row, with jitter.
  case errorBackoff = "error_backoff"
  /// Nothing known: one hour, within the configured bounds; also after a 410.
  case `default`
}
