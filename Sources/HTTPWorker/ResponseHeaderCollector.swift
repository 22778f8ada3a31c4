import Foundation

/// Collects the header lines curl reports for one transfer and keeps what the `end` record
/// reports (docs/format.md).
///
/// curl's header callback sees every response of a redirect chain, one line at a time, plus any
/// 1xx interim responses (docs/libraries.md): each `HTTP/…` status line starts a new block, and
/// only the last block's fields describe the document. The statuses of the blocks before it are
/// the redirect hops, which decide `permanentRedirect`.
struct ResponseHeaderCollector {
  /// Fields of the current (latest) response block, by lower-cased name.
  private var fields: [String: String] = [:]
  /// The same block's lines in order, names as the server wrote them.
  private var lines: [HTTPHeader] = []
  private var currentStatus: Int?
  /// Statuses of the finished, non-1xx blocks before the current one.
  private(set) var hopStatuses: [Int] = []

  /// The status of the current (latest) block.
  var status: Int? { currentStatus }
  /// The current block's `Location`, as the server wrote it.
  var location: String? { fields["location"] }
  /// True right after the blank line that ends a block (the next line starts another block).
  private(set) var blockEnded = false

  /// Takes one raw header line as curl delivers it (with its CRLF).
  mutating func take(line raw: String) {
    let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    blockEnded = line.isEmpty
    if line.hasPrefix("HTTP/") {
      if let status = currentStatus, !(100..<200).contains(status) {
        hopStatuses.append(status)
      }
      fields = [:]
      lines = []
      currentStatus = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
      return
    }
    guard let colon = line.firstIndex(of: ":") else { return }
    let name = line[..<colon].trimmingCharacters(in: .whitespaces)
    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    fields[name.lowercased()] = value
    lines.append(HTTPHeader(received: name, value: value))
  }

  /// True when there was at least one redirect and every hop was permanent (RFC 9110 §15.4:
  /// 301 and 308 tell the client to update its references; 302, 303 and 307 do not).
  var permanentRedirect: Bool {
    !hopStatuses.isEmpty && hopStatuses.allSatisfy { $0 == 301 || $0 == 308 }
  }

  /// The final response as the delegate sees it.
  func response(status: Int, url: String, now: Date = Date()) -> TransferResponse {
    var response = TransferResponse(status: status, url: url)
    response.permanentRedirect = permanentRedirect
    response.redirectCount = hopStatuses.count
    response.contentType = fields["content-type"]
    response.etag = fields["etag"]
    response.lastModified = fields["last-modified"]
    response.headers = lines
    response.cacheMaxAge = fields["cache-control"].flatMap(Self.maxAge)
    if let value = fields["expires"] {
      // An unreadable Expires (often "0" or "-1") means already expired.
      response.expiresAfter =
        HTTPDate.parse(value).map { max(0, Int($0.timeIntervalSince(now))) } ?? 0
    }
    if status == 429 || status == 503, let value = fields["retry-after"] {
      response.retryAfter = Self.retryAfterSeconds(value, now: now)
    }
    return response
  }

  /// `max-age=N` of a Cache-Control value, nil without one.
  static func maxAge(_ value: String) -> Int? {
    for directive in value.split(separator: ",") {
      let parts = directive.split(separator: "=", maxSplits: 1)
      guard parts.count == 2,
        parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "max-age"
      else { continue }
      return Int(
        parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
          in: CharacterSet(charactersIn: "\"")))
    }
    return nil
  }

  /// `Retry-After` is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3); a date becomes
  /// the seconds from `now`, never negative.
  static func retryAfterSeconds(_ value: String, now: Date) -> Int? {
    if let seconds = Int(value), seconds >= 0 { return seconds }
    guard let date = HTTPDate.parse(value) else { return nil }
    return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
  }
}

/// HTTP-date in its preferred IMF-fixdate form and the two obsolete forms a recipient must accept
/// (RFC 9110 §5.6.7): `Retry-After`, `Expires`, `Last-Modified`.
public enum HTTPDate {
  private static let formats = [
    "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
  ]

  /// The instant `text` names, or nil when it is in none of the three forms.
  public static func parse(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    for format in formats {
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }
}
