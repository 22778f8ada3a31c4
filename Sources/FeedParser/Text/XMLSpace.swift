/// XML 1.0's white space (production 3: space, tab, CR, LF), which every step of the parser
/// trims or skips: one definition, for bytes and for scalars, and the one way to trim it from
/// text (`trimmingSpaces`) and from bytes (`xmlSpaceTrimmedRange`).
extension UInt8 {
  var isXMLSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

extension Unicode.Scalar {
  var isXMLSpace: Bool { self == " " || self == "\n" || self == "\r" || self == "\t" }
}

extension BidirectionalCollection where Element == UInt8 {
  /// The positions of the bytes without surrounding XML white space.
  @inline(__always)
  var xmlSpaceTrimmedRange: Range<Index> {
    var start = startIndex
    var end = endIndex
    while start < end, self[start].isXMLSpace { formIndex(after: &start) }
    while end > start, self[index(before: end)].isXMLSpace { formIndex(before: &end) }
    return start..<end
  }
}

extension String {
  /// The text without surrounding XML white space (space, tab, CR, LF), without Foundation.
  package consuming func trimmingSpaces() -> String {
    // Fast path: nothing to trim (ASCII white space is one UTF-8 byte at either end), read
    // from the contiguous UTF-8 (`utf8.last` walks the generic index path, a few hundred
    // instructions a call, and a copy for `withUTF8` costs a retain and a release; every
    // field is trimmed).
    let untrimmed = utf8.withContiguousStorageIfAvailable { bytes in
      guard let first = bytes.first, let last = bytes.last else { return false }
      return !first.isXMLSpace && !last.isXMLSpace
    }
    if untrimmed == true { return self }
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.isXMLSpace }) else { return "" }
    let last = scalars.lastIndex(where: { !$0.isXMLSpace })!
    if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) {
      return self
    }
    return String(scalars[first...last])
  }
}

extension Array where Element == UInt8 {
  /// Empties a reused byte buffer. `removeAll(keepingCapacity:)` goes through the generic
  /// `replaceSubrange` (about 55 instructions) even when there is nothing to remove, and a
  /// parse clears its text buffer at every field's start and end.
  @inline(__always)
  mutating func clearKeepingCapacity() {
    if !isEmpty { removeAll(keepingCapacity: true) }
  }
}
