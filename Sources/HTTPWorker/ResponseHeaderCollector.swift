import FeedPullSupport
import Foundation

/// Collects the header lines curl reports for one transfer and keeps what the `end` record
/// reports (docs/format.md).
///
/// curl's header callback sees every response of a redirect chain, one line at a time, plus any
/// 1xx interim responses (docs/libraries.md): each `HTTP/…` status line starts a new block, and
/// only the last block's fields describe the document. The statuses of the blocks before it are
/// the redirect hops, which decide `permanentRedirect`.
struct ResponseHeaderCollector {
  /// The current (latest) block's lines in order, names as the server wrote them.
  private var lines: [HTTPHeader] = []
  /// Where in `lines` the last field of each name the response reports is, noted as each line
  /// is taken (looked up by name afterwards, they cost 19 comparisons a response).
  private var known = KnownFields()
  private var currentStatus: Int?
  /// Statuses of the finished, non-1xx blocks before the current one.
  private(set) var hopStatuses: [Int] = []

  /// The status of the current (latest) block.
  var status: Int? { currentStatus }
  /// The current block's `Location`, as the server wrote it.
  var location: String? { value(at: known.location) }
  /// True right after the blank line that ends a block (the next line starts another block).
  private(set) var blockEnded = false

  /// Takes one raw header line as curl delivers it (with its CRLF). Read as bytes: this runs
  /// for every header line of every response, and Foundation's trimming on `String`s was 8%
  /// of the whole process's CPU time on 1,000 small feeds over HTTP/2.
  mutating func take(line raw: UnsafeRawBufferPointer) {
    var start = raw.startIndex
    var end = raw.endIndex
    while start < end, Self.isWhiteSpace(raw[start]) { start += 1 }
    while end > start, Self.isWhiteSpace(raw[end - 1]) { end -= 1 }
    let line = UnsafeRawBufferPointer(rebasing: raw[start..<end])
    blockEnded = line.isEmpty
    if Self.isStatusLine(line) {
      if let status = currentStatus, !(100..<200).contains(status) {
        hopStatuses.append(status)
      }
      // Room for a usual block at once, instead of growing four times on every response.
      lines.removeAll(keepingCapacity: true)
      lines.reserveCapacity(12)
      known = KnownFields()
      currentStatus = Self.statusCode(line)
      return
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
    var nameEnd = colon
    while nameEnd > line.startIndex, Self.isWhiteSpace(line[nameEnd - 1]) { nameEnd -= 1 }
    var valueStart = colon + 1
    while valueStart < line.endIndex, Self.isWhiteSpace(line[valueStart]) { valueStart += 1 }
    let name = UnsafeRawBufferPointer(rebasing: line[line.startIndex..<nameEnd])
    known.note(name, at: lines.count)
    lines.append(
      HTTPHeader(
        received: String(decoding: name, as: UTF8.self),
        value: String(decoding: line[valueStart..<line.endIndex], as: UTF8.self)))
  }

  /// Whether `line` starts with `HTTP/` (a status line, which starts a block).
  private static func isStatusLine(_ line: UnsafeRawBufferPointer) -> Bool {
    line.count >= 5 && line[0] == 0x48 && line[1] == 0x54 && line[2] == 0x54 && line[3] == 0x50
      && line[4] == 0x2F
  }

  private func value(at index: Int?) -> String? {
    index.map { lines[$0].value }
  }

  /// The same for a line given as text (tests).
  mutating func take(line: String) {
    var line = line
    line.withUTF8 { take(line: UnsafeRawBufferPointer($0)) }
  }

  private static func isWhiteSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
  }

  /// The number after the first space of a status line (`HTTP/1.1 301 Moved`, `HTTP/2 200`).
  private static func statusCode(_ line: UnsafeRawBufferPointer) -> Int? {
    guard let space = line.firstIndex(of: 0x20) else { return nil }
    var value = 0
    var digits = 0
    for byte in line[(space + 1)...] {
      guard (0x30...0x39).contains(byte) else { break }
      value = value * 10 + Int(byte - 0x30)
      digits += 1
      if digits > 3 { return nil }
    }
    return digits > 0 ? value : nil
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
    response.contentType = value(at: known.contentType)
    response.etag = value(at: known.etag)
    response.lastModified = value(at: known.lastModified)
    response.headers = lines
    response.cacheMaxAge = value(at: known.cacheControl).flatMap(Self.maxAge)
    if let value = value(at: known.expires) {
      // An unreadable Expires (often "0" or "-1") means already expired.
      response.expiresAfter =
        HTTPDate.parse(value).map { max(0, Int($0.timeIntervalSince(now))) } ?? 0
    }
    if status == 429 || status == 503, let value = value(at: known.retryAfter) {
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

/// Where the fields a response reports lie in a block's lines: the index of the last line of
/// each name, names compared without case.
private struct KnownFields {
  var contentType: Int?
  var etag: Int?
  var lastModified: Int?
  var cacheControl: Int?
  var expires: Int?
  var retryAfter: Int?
  var location: Int?

  /// Notes the line at `index`, whose field name is `name`, if it is one of the fields.
  mutating func note(_ name: UnsafeRawBufferPointer, at index: Int) {
    switch name.count {
    case 4 where ASCIIWord.equalsIgnoringCase(name, "etag"): etag = index
    case 7 where ASCIIWord.equalsIgnoringCase(name, "expires"): expires = index
    case 8 where ASCIIWord.equalsIgnoringCase(name, "location"): location = index
    case 11 where ASCIIWord.equalsIgnoringCase(name, "retry-after"): retryAfter = index
    case 12 where ASCIIWord.equalsIgnoringCase(name, "content-type"): contentType = index
    case 13 where ASCIIWord.equalsIgnoringCase(name, "last-modified"): lastModified = index
    case 13 where ASCIIWord.equalsIgnoringCase(name, "cache-control"): cacheControl = index
    default: break
    }
  }
}
