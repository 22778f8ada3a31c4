#if canImport(Glibc)
  import Glibc
#endif

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
  /// Whether the directory's path has a `.` or `..` segment (nearly no base has).
  private let directoryHasDotSegment: Bool
  /// Whether the base holds `&`, `<`, `>` or `"`, which a URL resolved against it must have
  /// escaped in an attribute value (nearly no base does).
  let hasMarkupCharacters: Bool

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
    hasMarkupCharacters = bytes.contains {
      $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
        || $0 == UInt8(ascii: "\"")
    }
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
    let directory = directory
    let originCount = origin.count
    directoryHasDotSegment = directory.withUnsafeBufferPointer {
      Self.hasDotSegment(UnsafeBufferPointer(rebasing: $0[originCount...]))
    }
  }

  /// True when a segment of the path at the start of `bytes` (up to its query or fragment)
  /// is `.` or `..`: only then does resolving have dot segments to remove.
  static func hasDotSegment(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    guard count > 0, memchr(bytes.baseAddress!, Int32(UInt8(ascii: ".")), count) != nil else {
      return false
    }
    var segmentStart = 0
    var index = 0
    while true {
      let atEnd =
        index == count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?")
        || bytes[index] == UInt8(ascii: "#")
      if atEnd {
        let length = index - segmentStart
        if length == 1 || length == 2, bytes[segmentStart] == UInt8(ascii: "."),
          length == 1 || bytes[segmentStart + 1] == UInt8(ascii: ".")
        {
          return true
        }
        if index == count || bytes[index] != UInt8(ascii: "/") { return false }
        segmentStart = index + 1
      }
      index += 1
    }
  }

  /// `reference` (no scheme, trimmed) resolved against the base.
  func resolve(_ reference: ArraySlice<UInt8>) -> [UInt8] {
    var resolved: [UInt8] = []
    var scratch: [UInt8] = []
    reference.withUnsafeBufferPointer { resolve($0, into: &resolved, scratch: &scratch) }
    return resolved
  }

  /// `reference` (no scheme, trimmed) resolved against the base, appended to `output`;
  /// `scratch` is storage kept between calls (for a path with dot segments). The sanitizer
  /// writes every relative link of a field this way, into the buffer it writes values to.
  func resolve(
    _ reference: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    scratch: inout [UInt8]
  ) {
    guard let first = reference.first else { return output.append(contentsOf: withoutFragment) }
    let start = output.count
    let pathFrom: Int
    switch first {
    case UInt8(ascii: "#"):
      output.append(contentsOf: withoutFragment)
      return output.append(contentsOf: reference)
    case UInt8(ascii: "?"):
      output.append(contentsOf: withoutQuery)
      return output.append(contentsOf: reference)
    case UInt8(ascii: "/"):
      if reference.count > 1 && reference[1] == UInt8(ascii: "/") {
        output.append(contentsOf: scheme)
        pathFrom = start + scheme.count + 2
      } else {
        output.append(contentsOf: origin)
        pathFrom = start + origin.count
      }
    default:
      output.append(contentsOf: directory)
      pathFrom = start + origin.count
      if directoryHasDotSegment {
        output.append(contentsOf: reference)
        return Self.removeDotSegments(&output, pathFrom: pathFrom, scratch: &scratch)
      }
    }
    output.append(contentsOf: reference)
    // Most links have no `.` or `..` segment, and their path stays as it is.
    guard Self.hasDotSegment(reference) else { return }
    Self.removeDotSegments(&output, pathFrom: pathFrom, scratch: &scratch)
  }

  /// RFC 3986 section 5.2.4 on the path of the URL that ends `url` (from `pathFrom` to its
  /// query or fragment), in place: `.` segments dropped, `..` segments drop the one before.
  /// Most paths have none and are not touched.
  static func removeDotSegments(_ url: inout [UInt8], pathFrom start: Int, scratch: inout [UInt8]) {
    let count = url.count
    var end = start
    if start < count && url[start] != UInt8(ascii: "/") {
      // `//host` with no path after the authority: the path starts at the first `/`.
      end = url[start...].firstIndex(of: UInt8(ascii: "/")) ?? count
    }
    let pathStart = end
    var hasDot = false
    while end < count && url[end] != UInt8(ascii: "?") && url[end] != UInt8(ascii: "#") {
      if url[end] == UInt8(ascii: ".") { hasDot = true }
      end += 1
    }
    guard hasDot else { return }
    // The path's segments (split at `/`, empty ones kept, but for an empty first one), each
    // written after a `/` into `scratch`; `..` takes back the last one written.
    scratch.removeAll(keepingCapacity: true)
    var segmentStart = pathStart
    var isFirst = true
    while true {
      var segmentEnd = segmentStart
      while segmentEnd < end && url[segmentEnd] != UInt8(ascii: "/") { segmentEnd += 1 }
      let length = segmentEnd - segmentStart
      let isLast = segmentEnd == end
      let isDot = length == 1 && url[segmentStart] == UInt8(ascii: ".")
      let isDotDot =
        length == 2 && url[segmentStart] == UInt8(ascii: ".")
        && url[segmentStart + 1] == UInt8(ascii: ".")
      if isFirst && length == 0 {
        // The empty segment before a leading `/`.
      } else if isDot {
        if isLast { scratch.append(UInt8(ascii: "/")) }
      } else if isDotDot {
        if let lastSlash = scratch.lastIndex(of: UInt8(ascii: "/")) {
          scratch.removeSubrange(lastSlash...)
        }
        if isLast { scratch.append(UInt8(ascii: "/")) }
      } else {
        scratch.append(UInt8(ascii: "/"))
        scratch.append(contentsOf: url[segmentStart..<segmentEnd])
      }
      isFirst = false
      if isLast { break }
      segmentStart = segmentEnd + 1
    }
    url.replaceSubrange(pathStart..<end, with: scratch)
  }
}
