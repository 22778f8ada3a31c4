/// Resolves a URI reference against a base URI, as RFC 3986 section 5.2 says: how `xml:base`
/// and the document's URL apply to links, enclosures and images. Pure Swift, no Foundation
/// (`URL(string:relativeTo:)` rejects much of what feeds carry, such as unescaped spaces).
enum URIResolver {
  private struct Parts {
    var scheme: Substring?
    var authority: Substring?
    var path: Substring
    var query: Substring?
    var fragment: Substring?
  }

  /// `reference` resolved against `base`; `reference` itself when there is no usable base.
  static func resolve(_ reference: String, against base: String?) -> String {
    let reference = reference.trimmingSpaces()
    // Most feed URLs are absolute: answer those without splitting anything.
    guard let base, !base.isEmpty, !hasScheme(reference) else { return reference }
    let ref = split(Substring(reference))
    if ref.scheme != nil { return reference }
    let baseParts = split(Substring(base.trimmingSpaces()))
    guard baseParts.scheme != nil else { return reference }
    var target = Parts(scheme: baseParts.scheme, authority: nil, path: "", query: nil)
    if ref.authority != nil {
      target.authority = ref.authority
      target.path = Substring(removeDotSegments(ref.path))
      target.query = ref.query
    } else {
      target.authority = baseParts.authority
      if ref.path.isEmpty {
        target.path = baseParts.path
        target.query = ref.query ?? baseParts.query
      } else {
        if ref.path.hasPrefix("/") {
          target.path = Substring(removeDotSegments(ref.path))
        } else {
          target.path = Substring(
            removeDotSegments(Substring(merge(base: baseParts, path: ref.path))))
        }
        target.query = ref.query
      }
    }
    target.fragment = ref.fragment
    return compose(target)
  }

  /// RFC 3986 section 3.1: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`, on UTF-8 bytes.
  private static func hasScheme(_ text: String) -> Bool {
    var isFirst = true
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
        break
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
        UInt8(ascii: "."):
        if isFirst { return false }
      case UInt8(ascii: ":"):
        return !isFirst
      default:
        return false
      }
      isFirst = false
    }
    return false
  }

  /// RFC 3986 appendix B, without a regular expression.
  private static func split(_ text: Substring) -> Parts {
    var rest = text
    var scheme: Substring?
    if let colon = rest.firstIndex(of: ":") {
      let candidate = rest[..<colon]
      if let first = candidate.first, first.isASCII, first.isLetter,
        candidate.allSatisfy({
          $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".")
        })
      {
        scheme = candidate
        rest = rest[rest.index(after: colon)...]
      }
    }
    var fragment: Substring?
    if let hash = rest.firstIndex(of: "#") {
      fragment = rest[rest.index(after: hash)...]
      rest = rest[..<hash]
    }
    var query: Substring?
    if let mark = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: mark)...]
      rest = rest[..<mark]
    }
    var authority: Substring?
    if rest.hasPrefix("//") {
      let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
      let end = rest[afterSlashes...].firstIndex(of: "/") ?? rest.endIndex
      authority = rest[afterSlashes..<end]
      rest = rest[end...]
    }
    return Parts(scheme: scheme, authority: authority, path: rest, query: query, fragment: fragment)
  }

  private static func merge(base: Parts, path: Substring) -> String {
    if base.authority != nil && base.path.isEmpty { return "/" + path }
    guard let slash = base.path.lastIndex(of: "/") else { return String(path) }
    return String(base.path[...slash]) + path
  }

  /// RFC 3986 section 5.2.4.
  private static func removeDotSegments(_ path: Substring) -> String {
    guard path.contains(".") else { return String(path) }
    var output: [Substring] = []
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    let absolute = path.hasPrefix("/")
    for (index, segment) in segments.enumerated() {
      if absolute && index == 0 { continue }
      let isLast = index == segments.count - 1
      switch segment {
      case ".":
        if isLast { output.append("") }
      case "..":
        if !output.isEmpty { output.removeLast() }
        if isLast { output.append("") }
      default:
        output.append(segment)
      }
    }
    return (absolute ? "/" : "") + output.joined(separator: "/")
  }

  private static func compose(_ parts: Parts) -> String {
    var result = ""
    if let scheme = parts.scheme { result += scheme + ":" }
    if let authority = parts.authority { result += "//" + authority }
    result += parts.path
    if let query = parts.query { result += "?" + query }
    if let fragment = parts.fragment { result += "#" + fragment }
    return result
  }
}
