#if canImport(Glibc)
  import Glibc
#endif

/// Hides the password a URL carries (`https://user:secret@host/…` → `https://user:***@host/…`)
/// wherever a URL is written for people or logs, and takes the user information out of a URL
/// that other URLs are resolved against.
///
/// The authority is found as URL parsers find it (WHATWG, and curl alike): it ends at the
/// first `/`, `?` or `#` after `//`, and the user information ends at its last `@`, so that
/// `https://host/@user.rss` (a path) is left alone and `https://a:b@c@host/` is masked whole.
public enum URLPasswordMask {
  /// `url` with its password, if it has one, replaced by `***`; anything else unchanged.
  public static func masked(_ url: String) -> String {
    guard let (_, colon, at) = userInfo(of: url), let colon else { return url }
    var result = String(url[...colon])
    result += "***"
    result += url[at...]
    return result
  }

  /// `url` without its user information (`user:secret@`), for resolving links against it: a
  /// link in a private feed must not carry the feed's password into the output.
  public static func withoutUserInfo(_ url: String) -> String {
    guard let (start, _, at) = userInfo(of: url) else { return url }
    return String(url[..<start]) + url[url.index(after: at)...]
  }

  /// `url` with the user information of `original` put back, when `url` (a link resolved
  /// against `original` without its user information) points at the same scheme, host and
  /// port: a discovered feed on the site of a private page is pulled with the page's
  /// credentials, and never a feed elsewhere.
  public static func restoringUserInfo(of original: String, in url: String) -> String {
    guard let (start, _, at) = userInfo(of: original), userInfo(of: url) == nil,
      let slashes = url.range(of: "://")
    else { return url }
    let stripped = withoutUserInfo(original)
    func origin(_ text: String) -> Substring? {
      guard let mark = text.range(of: "://") else { return nil }
      let end =
        text[mark.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
      return text[..<end]
    }
    guard let a = origin(stripped), let b = origin(url), a.lowercased() == b.lowercased() else {
      return url
    }
    return String(url[..<slashes.upperBound]) + original[start...at] + url[slashes.upperBound...]
  }

  /// Where the user information starts, its first `:` (nil when it has no password) and its
  /// last `@`; nil when the URL has none.
  private static func userInfo(of url: String) -> (
    start: String.Index, colon: String.Index?, at: String.Index
  )? {
    // A fast refusal for the common case: most URLs have no `@` at all.
    // (`memchr` over the bytes: the generic `contains` stepped through them one at a time.)
    let hasAt =
      url.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.isEmpty ? false : memchr(bytes.baseAddress!, 0x40, bytes.count) != nil
      }
      ?? url.utf8.contains(UInt8(ascii: "@"))
    guard hasAt, let slashes = url.range(of: "://") else {
      return nil
    }
    let start = slashes.upperBound
    let authorityEnd =
      url[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0 == "\\" }
      ?? url.endIndex
    guard let at = url[start..<authorityEnd].lastIndex(of: "@") else { return nil }
    return (start, url[start..<at].firstIndex(of: ":"), at)
  }
}
