/// The base URL of one field's markup, split once, so that the relative URIs inside it (a
/// blog post's `/wp-content/…` images, `../related/` links) are resolved on their bytes, as RFC
/// 3986 section 5.2 says: `URIResolver` works on `String`s, and resolving a few links an item
/// with it cost more than the rest of sanitizing.
struct MarkupBase {
  /// The base as given: kept to tell whether the next field has the same one.
  let text: String
  /// `scheme:`, `scheme://authority`, that plus the path's directory (to its last `/`), the
  /// base without its query and fragment, and without its fragment.
  private let scheme: [UInt8]
  private let origin: [UInt8]
  private let directory: [UInt8]
  private let withoutQuery: [UInt8]
  private let withoutFragment: [UInt8]

  /// Nil for a base without a scheme and an authority (`URIResolver` takes those).
  init?(_ text: String) {
    self.text = text
    let bytes = Array(text.trimmingSpaces().utf8)
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
      bytes[..<colon].allSatisfy({
        $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
          || $0 == UInt8(ascii: ".")
      }),
      bytes.count >= colon + 3, bytes[colon + 1] == UInt8(ascii: "/"),
      bytes[colon + 2] == UInt8(ascii: "/")
    else { return nil }
    let fragmentStart = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
    let queryStart = bytes[..<fragmentStart].firstIndex(of: UInt8(ascii: "?")) ?? fragmentStart
    let authorityStart = colon + 3
    let pathStart =
      bytes[authorityStart..<queryStart].firstIndex(of: UInt8(ascii: "/")) ?? queryStart
    scheme = Array(bytes[...colon])
    origin = Array(bytes[..<pathStart])
    withoutQuery = Array(bytes[..<queryStart])
    withoutFragment = Array(bytes[..<fragmentStart])
    if let lastSlash = bytes[pathStart..<queryStart].lastIndex(of: UInt8(ascii: "/")) {
      directory = Array(bytes[...lastSlash])
    } else {
      directory = origin + [UInt8(ascii: "/")]
    }
  }

  /// `reference` (no scheme, trimmed) resolved against the base.
  func resolve(_ reference: ArraySlice<UInt8>) -> [UInt8] {
    guard let first = reference.first else { return withoutFragment }
    switch first {
    case UInt8(ascii: "#"):
      return withoutFragment + reference
    case UInt8(ascii: "?"):
      return withoutQuery + reference
    case UInt8(ascii: "/"):
      if reference.count > 1 && reference[reference.startIndex + 1] == UInt8(ascii: "/") {
        return Self.withoutDotSegments(scheme + reference, pathFrom: scheme.count + 2)
      }
      return Self.withoutDotSegments(origin + reference, pathFrom: origin.count)
    default:
      return Self.withoutDotSegments(directory + reference, pathFrom: origin.count)
    }
  }

  /// RFC 3986 section 5.2.4 on the path of `url` (from `pathFrom` to its query or fragment):
  /// `.` segments dropped, `..` segments drop the one before. Most paths have none: they come
  /// back as they are.
  static func withoutDotSegments(_ url: [UInt8], pathFrom start: Int) -> [UInt8] {
    var end = start
    if start < url.count && url[start] != UInt8(ascii: "/") {
      // `//host` with no path after the authority: the path starts at the first `/`.
      end = url[start...].firstIndex(of: UInt8(ascii: "/")) ?? url.count
    }
    let pathStart = end
    while end < url.count && url[end] != UInt8(ascii: "?") && url[end] != UInt8(ascii: "#") {
      end += 1
    }
    let path = url[pathStart..<end]
    guard path.contains(UInt8(ascii: ".")) else { return url }
    var segments: [ArraySlice<UInt8>] = []
    let parts = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    for (index, segment) in parts.enumerated() {
      if index == 0 && segment.isEmpty { continue }
      let isLast = index == parts.count - 1
      if segment.elementsEqual([UInt8(ascii: ".")]) {
        if isLast { segments.append([]) }
      } else if segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
        if !segments.isEmpty { segments.removeLast() }
        if isLast { segments.append([]) }
      } else {
        segments.append(segment)
      }
    }
    var result = Array(url[..<pathStart])
    for segment in segments {
      result.append(UInt8(ascii: "/"))
      result.append(contentsOf: segment)
    }
    result.append(contentsOf: url[end...])
    return result
  }
}
