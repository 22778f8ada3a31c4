/// The few date shapes nearly every feed writes, read straight from the string's UTF-8 with no
/// allocation. The general forms copy, lower-case and split the text first, about 10,000
/// instructions a date, which profiling showed as a visible share of a whole feed's parse; this
/// reads the common shapes in a few hundred.
///
/// It answers only when sure: other text, and a date in these shapes whose fields are out of
/// range, go to the general path, which decides. Tests hold the two to the same answer.
enum CommonDateShapes {
  /// Seconds since 1970 for a valid date in a common shape; nil for anything else.
  static func seconds(_ text: String) -> Int64? {
    text.utf8.withContiguousStorageIfAvailable { seconds(in: $0) } ?? nil
  }

  static func seconds(in bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    let trimmed = bytes.xmlSpaceTrimmedRange
    let (start, end) = (trimmed.lowerBound, trimmed.upperBound)
    // A long fraction of a second could otherwise pass text the general path refuses.
    guard end - start <= FeedDateParser.longestDate else { return nil }
    let scanner = DateByteCursor(bytes, from: start, to: end)
    // Only the RFC 3339 shape has a dash fifth; trying the other would merely fail.
    let isRFC3339 = scanner.byte(at: 4) == UInt8(ascii: "-")
    var fields = CivilTime.Fields(year: 0)
    let isRead =
      isRFC3339
      ? CommonRFC3339Shape.read(scanner, into: &fields)
      : CommonRFC822Shape.read(scanner, into: &fields)
    return isRead ? FeedDateParser.instant(fields) : nil
  }
}
