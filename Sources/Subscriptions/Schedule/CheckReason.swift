/// Why a source's next check is when it is: the rule of the schedule that decided it.
public enum CheckReason: String, Codable, Sendable, CaseIterable {
  case ttl
  case cacheControl = "cache_control"
  case expires
  case retryAfter = "retry_after"
  case updatePeriod = "update_period"
  case skipHours = "skip_hours"
  case itemRate = "item_rate"
  case errorBackoff = "error_backoff"
  case `default`
}
