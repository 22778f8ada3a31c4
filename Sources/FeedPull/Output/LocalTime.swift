#if canImport(Glibc)
  import Glibc
#endif

/// Times as a person at a terminal reads them: in the local time zone, to the minute.
public enum LocalTime {
  /// `2025-11-01 18:30`; nil when the time cannot be converted.
  public static func dateAndTime(_ secondsSince1970: Int64) -> String? {
    guard let parts = parts(secondsSince1970) else { return nil }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min))"
  }

  /// `18:45` when the time falls on the same local day as `today`, else `2025-11-02 18:45`.
  public static func clock(_ secondsSince1970: Int64, today: Int64) -> String {
    guard let time = parts(secondsSince1970), let now = parts(today) else { return "?" }
    if time.tm_year == now.tm_year && time.tm_yday == now.tm_yday {
      return "\(two(time.tm_hour)):\(two(time.tm_min))"
    }
    return dateAndTime(secondsSince1970) ?? "?"
  }

  private static func parts(_ secondsSince1970: Int64) -> tm? {
    var time = time_t(secondsSince1970)
    var parts = tm()
    guard localtime_r(&time, &parts) != nil else { return nil }
    return parts
  }

  private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
