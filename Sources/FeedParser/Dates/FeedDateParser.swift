/// Reads the dates feeds carry. STUB: the real implementation replaces this file.
public enum FeedDateParser {
  /// Seconds since 1970-01-01T00:00:00Z for an RFC 822 or RFC 3339 / W3C-DTF date or a common
  /// variant of either; nil when the text matches no known form.
  public static func parse(_ text: String) -> Int64? { nil }

  /// The instant as RFC 3339 in UTC: `2011-10-19T01:35:15Z`.
  public static func rfc3339(_ secondsSince1970: Int64) -> String { "" }
}
