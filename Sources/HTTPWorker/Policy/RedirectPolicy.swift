/// Which redirects the worker follows besides curl's own rules (http and https only, at most
/// `maxRedirects`): a redirect from https to http is a downgrade that would send the request,
/// and later everything pulled from that source, in plain text, so it is refused unless the
/// worker is told to allow it.
public enum RedirectPolicy {
  /// The statuses curl follows with `CURLOPT_FOLLOWLOCATION`.
  static let followedStatuses: Set<Int> = [301, 302, 303, 307, 308]

  /// True when a request to `from` that is sent on to `to` leaves https for http. `to` may be a
  /// `Location` value: a relative or scheme-relative one keeps the scheme and is no downgrade.
  public static func isDowngrade(from: String, to: String) -> Bool {
    scheme(of: from) == "https" && scheme(of: to) == "http"
  }

  /// The scheme of `url`, lower-cased (RFC 3986: a letter, then letters, digits, `+ - .`,
  /// then a colon), after leading white space; nil for a relative reference.
  static func scheme(of url: String) -> String? {
    let trimmed = url.utf8.drop { $0 == 0x20 || $0 == 0x09 }
    guard let colon = trimmed.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    let name = trimmed[..<colon]
    guard let first = name.first, isLetter(first),
      name.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || "+-.".utf8.contains($0) })
    else { return nil }
    return String(decoding: name, as: UTF8.self).lowercased()
  }

  /// Whether `url`'s scheme is https, as `scheme(of:)` would say, read on the bytes without
  /// making the scheme a string: every transfer asks.
  static func isHTTPS(_ url: String) -> Bool {
    let bytes = url.utf8
    var index = bytes.startIndex
    while index != bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x09 {
      index = bytes.index(after: index)
    }
    for expected in "https:".utf8 {
      guard index != bytes.endIndex else { return false }
      let byte = bytes[index]
      guard (isLetter(byte) ? byte | 0x20 : byte) == expected else { return false }
      index = bytes.index(after: index)
    }
    return true
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }
}
