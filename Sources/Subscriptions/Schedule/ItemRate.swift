/// The observed posting rate of a source, from a short summary of when its new items appeared:
/// a source that posts hourly is checked more often than one that posts monthly.
public enum ItemRate {
  /// Times kept in the summary.
  public static let capacity = 16

  /// Adds this pull's new-item times (item dates when given and not in the future, else the
  /// pull's time) to the summary, oldest first, at most `capacity`, in whole seconds.
  public static func adding(_ times: [Duration], to summary: [Duration]) -> [Duration] {
    Array(Set((summary + times).map(\.inWholeSeconds)).sorted().suffix(capacity))
  }

  /// Half the mean gap between the summary's times: checked twice per posting period. Nil with
  /// fewer than two distinct times.
  static func interval(_ times: [Duration]) -> Duration? {
    guard times.count >= 2, let first = times.first, let last = times.last, last > first else {
      return nil
    }
    return ((last - first) / (times.count - 1) / 2).inWholeSeconds
  }
}
