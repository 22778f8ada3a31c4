import CPSL
import Foundation

/// The unit of politeness: the party that owns a server and sets its rate limits.
///
/// Two feeds on `blog.example.co.uk` and `www.example.co.uk` are one site to its operator, so
/// limits that protect a server (transfers in flight, the delay between request starts, a
/// Retry-After) count by registrable domain (eTLD+1), not by host name. The Public Suffix List
/// decides where the registrable part starts (`example.co.uk`, but `user.github.io`), read
/// through libpsl's built-in copy, the same one libcurl links for its cookie rules. An IP literal
/// is its own key, and a name with no registrable part (`localhost`, a public suffix itself) is
/// kept as written; `*.localhost` names stay apart, which lets tests stand up several "sites" on
/// one loopback address.
public enum PoliteHost {
  /// The politeness key of `url`'s host, lower-cased; nil when `url` has no host.
  public static func key(forURL url: String) -> String? {
    guard let host = plainHost(of: url) ?? URLComponents(string: url)?.host, !host.isEmpty
    else { return nil }
    return key(forHost: host)
  }

  /// The host of an `http://` or `https://` URL whose authority is plain (ASCII, no user
  /// information, no brackets, no escapes), read on the bytes; nil for every other URL, which
  /// Foundation's parser reads. Every pull asks for its host's key several times, and
  /// `URLComponents` costs more than the rest of scheduling a source.
  static func plainHost(of url: String) -> String? {
    var url = url
    // On the contiguous bytes: walking `String.UTF8View` by index cost some 1,700
    // instructions a URL (callgrind, once per transfer).
    return url.withUTF8 { bytes -> String? in
      guard let (start, end) = plainHostRange(bytes) else { return nil }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
  }

  /// Where the plain host of `bytes` (a URL) lies: `plainHost`'s reading.
  private static func plainHostRange(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
    var index = 0
    for expected in "http".utf8 {
      guard index < bytes.count, bytes[index] | 0x20 == expected else { return nil }
      index += 1
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "s") { index += 1 }
    for expected in "://".utf8 {
      guard index < bytes.count, bytes[index] == expected else { return nil }
      index += 1
    }
    let start = index
    var hostEnd: Int?
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
        break
      }
      let plain =
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
      guard plain else { return nil }
      if hostEnd != nil {
        // The port: digits only.
        guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
      } else if byte == UInt8(ascii: ":") {
        hostEnd = index
      }
      index += 1
    }
    let end = hostEnd ?? index
    guard start != end else { return nil }
    return (start, end)
  }

  /// The politeness key of a host name or IP literal (brackets around IPv6 allowed).
  public static func key(forHost host: String) -> String {
    var name = host.lowercased()
    if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    if name.hasSuffix(".") { name.removeLast() }
    if isIPLiteral(name) { return name }
    if name == "localhost" || name.hasSuffix(".localhost") { return name }
    guard let context = psl_builtin() else { return name }
    // libpsl answers with a pointer into the name it was given (the registrable domain is a
    // suffix of it): the answer is copied while that C string is alive (AddressSanitizer
    // found the temporary one Swift passes for a `String` argument freed before the read).
    return name.withCString { cName in
      psl_registrable_domain(context, cName).map { String(cString: $0) }
    } ?? name
  }

  private static func isIPLiteral(_ name: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
  }
}
