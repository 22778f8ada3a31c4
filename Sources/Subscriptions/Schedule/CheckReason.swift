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

extension CheckReason {
  /// The reason whose raw value `text` is; nil for any other text. By its first byte and length
  /// (a store reads one per source, and `init(rawValue:)` compared it with each case's text).
  static func parsing(_ text: UnsafeBufferPointer<UInt8>) -> CheckReason? {
    guard let first = text.first else { return nil }
    let candidate: CheckReason? =
      switch (first, text.count) {
      case (UInt8(ascii: "t"), 3): .ttl
      case (UInt8(ascii: "c"), 13): .cacheControl
      case (UInt8(ascii: "e"), 7): .expires
      case (UInt8(ascii: "r"), 11): .retryAfter
      case (UInt8(ascii: "u"), 13): .updatePeriod
      case (UInt8(ascii: "s"), 10): .skipHours
      case (UInt8(ascii: "i"), 9): .itemRate
      case (UInt8(ascii: "e"), 13): .errorBackoff
      case (UInt8(ascii: "d"), 7): .default
      default: nil
      }
    guard let candidate else { return nil }
    var raw = candidate.rawValue
    let same = raw.withUTF8 { raw in
      for index in 1..<raw.count where raw[index] != text[index] { return false }
      return true
    }
    return same ? candidate : nil
  }
}
