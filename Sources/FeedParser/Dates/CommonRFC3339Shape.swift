/// The RFC 3339 shapes Atom feeds write, `2026-11-18T20:06:40Z`, `…+09:00`, `…-0500`,
/// `….123Z`, also without seconds or zone, with a space for the `T`, or a date alone. Compact
/// dates, ordinal dates, zone names and spaces before the zone are left to `ISO8601DateForm`,
/// which reads this shape as well: here only its copy of the text is skipped.
enum CommonRFC3339Shape {
  /// Reads the text into `fields` (fresh ones, all defaults); false when it is not in this
  /// shape. Filled in place rather than returned, which spares copies of the fields.
  static func read(_ scanner: DateByteCursor, into fields: inout CivilTime.Fields) -> Bool {
    var scanner = scanner
    guard let year = scanner.number(digits: 4), scanner.take(UInt8(ascii: "-")),
      let month = scanner.number(digits: 2), scanner.take(UInt8(ascii: "-")),
      let day = scanner.number(digits: 2)
    else { return false }
    fields.year = year
    fields.month = month
    fields.day = day
    if scanner.isAtEnd { return true }
    guard scanner.takeLetter(UInt8(ascii: "t")) || scanner.take(UInt8(ascii: " ")),
      let hasSeconds = scanner.clock(into: &fields)
    else { return false }
    // A fraction of a second is dropped, as the general path does.
    if hasSeconds && (scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ","))) {
      guard scanner.skipDigits() > 0 else { return false }
    }
    if scanner.isAtEnd { return true }
    if scanner.takeLetter(UInt8(ascii: "z")) { return scanner.isAtEnd }
    guard let offset = scanner.signedOffsetToEnd() else { return false }
    fields.offsetMinutes = offset
    return true
  }
}
