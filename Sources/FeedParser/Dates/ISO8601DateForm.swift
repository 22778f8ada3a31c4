/// RFC 3339, W3C-DTF and the ISO 8601 forms feeds use (feedparser's `_parse_date_w3dtf` reads
/// the same set): `2003-12-13T18:30:02Z`, `2003-12-13T18:30:02.25+01:00`, `2003-12-13 18:30`,
/// `20031213T183002Z`, `2003-12-13` (midnight UTC), `2003-12`, `2003`, ordinal `2003-347`, a
/// space before the zone, and a zone name (`2003-12-13 18:30:02 UTC`). No zone means UTC.
enum ISO8601DateForm {
  /// The fields, or nil when `bytes` (lower case, trimmed) is not in one of these forms.
  static func parse(_ bytes: ArraySlice<UInt8>) -> CivilTime.Fields? {
    bytes.withUnsafeBufferPointer { parse(DateByteCursor($0)) }
  }

  private static func parse(_ start: DateByteCursor) -> CivilTime.Fields? {
    var cursor = start
    guard let year = cursor.number(digits: 4) else { return nil }
    var fields = CivilTime.Fields(year: year)
    let extended = cursor.take(UInt8(ascii: "-"))
    switch (extended, cursor.digitRun()) {
    case (_, 0) where !extended: break
    case (_, 2):
      fields.month = cursor.number(digits: 2) ?? 0
      if extended && cursor.take(UInt8(ascii: "-")) {
        guard let day = cursor.number(digits: 2) else { return nil }
        fields.day = day
      }
    case (false, 4):
      fields.month = cursor.number(digits: 2) ?? 0
      fields.day = cursor.number(digits: 2) ?? 0
    case (true, 3)
    where cursor.peek == UInt8(ascii: "0") && cursor.byte(at: 3) == UInt8(ascii: "-"):
      // Google once wrote months with an extra zero (`2003-012-31`); feedparser reads it.
      cursor.skip(1)
      fields.month = cursor.number(digits: 2) ?? 0
      _ = cursor.take(UInt8(ascii: "-"))
      guard let day = cursor.number(digits: 2) else { return nil }
      fields.day = day
    case (_, 3): fields.ordinalDay = cursor.number(digits: 3)
    default: return nil
    }
    if cursor.isAtEnd { return fields }
    guard cursor.take(UInt8(ascii: "t")) || cursor.peek == 0x20 else { return nil }
    cursor.skipSpaces()
    guard parseTime(&cursor, into: &fields) else { return nil }
    cursor.skipSpaces()
    if cursor.isAtEnd { return fields }
    guard let offset = cursor.zoneToEnd() else { return nil }
    fields.offsetMinutes = offset
    return fields
  }

  /// `hh:mm[:ss[.fff]]` or compact `hhmm[ss[.fff]]`; a fraction of a second is dropped.
  private static func parseTime(_ cursor: inout DateByteCursor, into fields: inout CivilTime.Fields)
    -> Bool
  {
    guard let hour = cursor.number(digits: 2) else { return false }
    let extended = cursor.take(UInt8(ascii: ":"))
    guard let minute = cursor.number(digits: 2) else { return false }
    fields.hour = hour
    fields.minute = minute
    if (extended && cursor.take(UInt8(ascii: ":"))) || (!extended && cursor.digitRun() == 2) {
      guard let second = cursor.number(digits: 2) else { return false }
      fields.second = second
      if cursor.take(UInt8(ascii: ".")) || cursor.take(UInt8(ascii: ",")) {
        let fraction = cursor.digitRun()
        guard fraction > 0 else { return false }
        cursor.skip(fraction)
      }
    }
    return true
  }
}
