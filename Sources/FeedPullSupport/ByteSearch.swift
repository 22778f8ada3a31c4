/// Where a short run of bytes first appears in longer ones: the sniffers' `encoding` in an XML
/// declaration and the end of a comment or processing instruction before a document's root,
/// and the source's place in the template of an end not pulled. Byte arrays, not `String`s:
/// `String.firstRange(of:)` compares characters and cost some 36,000 instructions a document.
/// Public and `@inlinable` for the same reason as `ByteWord`; not API.
public enum ByteSearch {
  /// The index in `bytes` where `pattern` (not empty) first starts, or nil. Each place is
  /// compared whole only when its first byte is the pattern's.
  @inlinable
  public static func firstStart(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
    guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
    let lastStart = bytes.endIndex - pattern.count
    var index = bytes.startIndex
    while index <= lastStart {
      if bytes[index] == first, bytes[index..<index + pattern.count].elementsEqual(pattern) {
        return index
      }
      index += 1
    }
    return nil
  }
}
