/// The RFC 822 shape nearly every RSS feed writes, `Wed, 18 Nov 2026 20:06:40 +0900`, with
/// `GMT`/`UT`/`UTC`/`Z` or a numeric zone, or none, and optionally without the weekday or the
/// seconds. Two-digit years, full month names, other zone names, comments and odd spacing are
/// left to `RFC822DateForm`, which reads this shape as well: here only its copy and word
/// splitting are skipped.
enum CommonRFC822Shape {
  /// Reads the text into `fields` (fresh ones, all defaults); false when it is not in this
  /// shape. Filled in place rather than returned, which spares copies of the fields.
  static func read(_ scanner: DateByteCursor, into fields: inout CivilTime.Fields) -> Bool {
    var scanner = scanner
    if scanner.nextIsLetter {
      guard let weekday = scanner.threeLetters(), isWeekday(weekday),
        scanner.take(UInt8(ascii: ",")),
        scanner.take(UInt8(ascii: " "))
      else { return false }
    }
    guard let day = scanner.number(digits: 2) ?? scanner.number(digits: 1),
      scanner.take(UInt8(ascii: " ")),
      let letters = scanner.threeLetters(), let month = month(letters),
      scanner.take(UInt8(ascii: " ")),
      let year = scanner.number(digits: 4)
    else { return false }
    fields.year = year
    fields.month = month
    fields.day = day
    if scanner.isAtEnd { return true }
    guard scanner.take(UInt8(ascii: " ")), scanner.clock(into: &fields) != nil else {
      return false
    }
    if scanner.isAtEnd { return true }
    guard scanner.take(UInt8(ascii: " ")), let offset = zoneToEnd(&scanner) else { return false }
    fields.offsetMinutes = offset
    return true
  }

  /// A numeric offset, or one of RFC 822's names for universal time (all 0 in `DateWords.zones`).
  private static func zoneToEnd(_ scanner: inout DateByteCursor) -> Int64? {
    guard scanner.nextIsLetter else { return scanner.signedOffsetToEnd() }
    let isUniversal =
      scanner.restIs("gmt") || scanner.restIs("utc") || scanner.restIs("ut")
      || (scanner.takeLetter(UInt8(ascii: "z")) && scanner.isAtEnd)
    return isUniversal ? 0 : nil
  }

  /// Checked, not skipped as any three letters, because the general path refuses a date whose
  /// first word is not a weekday.
  private static func isWeekday(_ letters: UInt32) -> Bool {
    switch letters {
    case key("mon"), key("tue"), key("wed"), key("thu"), key("fri"), key("sat"), key("sun"): true
    default: false
    }
  }

  private static func month(_ letters: UInt32) -> Int64? {
    switch letters {
    case key("jan"): 1
    case key("feb"): 2
    case key("mar"): 3
    case key("apr"): 4
    case key("may"): 5
    case key("jun"): 6
    case key("jul"): 7
    case key("aug"): 8
    case key("sep"): 9
    case key("oct"): 10
    case key("nov"): 11
    case key("dec"): 12
    default: nil
    }
  }

  private static func key(_ name: StaticString) -> UInt32 { DateByteCursor.key(name) }
}
