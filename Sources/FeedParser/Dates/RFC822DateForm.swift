/// RFC 822 / 1123 / 2822 dates and the variants feeds write, read as a sequence of words
/// matched against a table of forms (feedparser's `_parse_date_rfc822`, `_parse_date_asctime`
/// and `_parse_date_perforce` read the same set). Words are split at white space and commas; an
/// RFC 2822 comment (`(JST)`) ends the date; a leading weekday is skipped and never checked.
enum RFC822DateForm {
  /// What one word of a date may be.
  enum Slot {
    /// 1 or 2 digits.
    case day
    /// A month name or its abbreviation (`Nov`, `Sept.`, `november`).
    case monthName
    /// 1 or 2 digits, in the numeric year-first form.
    case monthNumber
    /// 2 or 4 digits; two-digit years follow feedparser: 90–99 are 1990s, 00–89 are 2000s.
    case year
    case fourDigitYear
    /// `h:mm`, `hh:mm:ss`, `hh:mm:ss.fff`.
    case time
    /// `am`, `pm`, `a.m.`, `p.m.`.
    case meridiem
    /// `+0900`, `+09:00`, `GMT`, `JST`, `GMT+9`, a military letter, or any other word (as UTC).
    case zone
  }

  struct Form {
    let name: String
    let slots: [(slot: Slot, optional: Bool)]
  }

  /// The forms, tried in order; the first that fits wins.
  static let forms: [Form] = [
    // RFC 822: `Sat, 01 Nov 2025 09:30:00 +0900`, `1 Nov 25 09:30 JST`, `01-Nov-2025 …`.
    Form(
      name: "rfc822",
      slots: [
        (.day, false), (.monthName, false), (.year, false), (.time, true), (.meridiem, true),
        (.zone, true),
      ]),
    // Month first: `Nov 1 2025 9:30 PM EST`, JavaScript's `Sat Nov 01 2025 09:30:00 GMT+0900`.
    Form(
      name: "month first",
      slots: [
        (.monthName, false), (.day, false), (.year, false), (.time, true), (.meridiem, true),
        (.zone, true),
      ]),
    // C asctime: `Sun Jan  4 16:29:06 PST 2004`, `Sun Jan  4 16:29:06 2004`.
    Form(
      name: "asctime",
      slots: [(.monthName, false), (.day, false), (.time, false), (.zone, true), (.year, false)]),
    // Numeric year first (Perforce's `Fri, 2006/09/15 08:19:53 EDT`, `2006-09-15 08:19:53 EDT`
    // after a weekday): the ISO scanner takes the forms without a weekday or a zone name.
    Form(
      name: "year first",
      slots: [
        (.fourDigitYear, false), (.monthNumber, false), (.day, false), (.time, true), (.zone, true),
      ]),
  ]

  /// The fields, or nil when `bytes` (lower case, trimmed) fits no form.
  static func parse(_ bytes: ArraySlice<UInt8>) -> CivilTime.Fields? {
    var words = DateWordSplitter.split(bytes)
    if let first = words.first, DateWords.isWeekday(first) { words.removeFirst() }
    for form in forms {
      if let fields = match(form, words) { return fields }
    }
    // A weekday in another language (`mer, 16 nov 2022`, `Mittwoch, …`): the weekday says
    // nothing the rest does not, so a first word of letters that is no month is skipped.
    guard let first = words.first, !first.isEmpty, DateWords.month(first) == nil,
      first.allSatisfy({ $0 >= 0x80 || ($0 >= 0x61 && $0 <= 0x7A) || $0 == UInt8(ascii: ".") })
    else { return nil }
    words.removeFirst()
    for form in forms {
      if let fields = match(form, words) { return fields }
    }
    return nil
  }

  private static func match(_ form: Form, _ words: [ArraySlice<UInt8>]) -> CivilTime.Fields? {
    var fields = CivilTime.Fields(year: 0)
    var next = 0
    var hasZone = false
    for (slot, optional) in form.slots {
      let outcome = next < words.count ? read(slot, words[next], into: &fields) : .notThisSlot
      if outcome == .invalid { return nil }
      if outcome == .read {
        next += 1
        hasZone = hasZone || slot == .zone
      } else if !optional {
        return nil
      }
    }
    // feedparser ignores words after the zone (`GMT blah`); anything else left over, such as
    // an offset that is not one (`+09:00:00`), must not silently read as UTC.
    guard next == words.count || hasZone else { return nil }
    return fields
  }

  enum Outcome {
    case read
    case notThisSlot
    /// The word is this slot's kind but cannot be right (`13:30 PM`): the date is unreadable.
    case invalid
  }

  /// Reads one word as `slot` into `fields`.
  private static func read(
    _ slot: Slot, _ word: ArraySlice<UInt8>, into fields: inout CivilTime.Fields
  )
    -> Outcome
  {
    let isNumber = !word.isEmpty && word.allSatisfy { $0 &- 0x30 < 10 }
    switch slot {
    case .day, .monthNumber:
      guard isNumber, word.count <= 2, let value = Int64(asciiDigits: word) else {
        return .notThisSlot
      }
      if slot == .day { fields.day = value } else { fields.month = value }
    case .monthName:
      guard let month = DateWords.month(word) else { return .notThisSlot }
      fields.month = month
    case .year, .fourDigitYear:
      guard isNumber, word.count == 4 || (word.count == 2 && slot == .year),
        let value = Int64(asciiDigits: word)
      else { return .notThisSlot }
      fields.year = word.count == 2 ? value + (value < 90 ? 2000 : 1900) : value
    case .time:
      return readTime(word, into: &fields) ? .read : .notThisSlot
    case .meridiem:
      let letters = word.filter { $0 != UInt8(ascii: ".") }
      guard letters.elementsEqual("am".utf8) || letters.elementsEqual("pm".utf8) else {
        return .notThisSlot
      }
      guard (1...12).contains(fields.hour) else { return .invalid }
      fields.hour = fields.hour % 12 + (letters.first == UInt8(ascii: "p") ? 12 : 0)
    case .zone:
      let offset = word.withUnsafeBufferPointer { bytes -> Int64? in
        var cursor = DateByteCursor(bytes)
        return cursor.zoneToEnd()
      }
      guard let offset else { return .notThisSlot }
      fields.offsetMinutes = offset
    }
    return .read
  }

  /// `h:mm`, `hh:mm:ss`, `hh:mm:ss.fff` (the fraction is dropped).
  private static func readTime(_ word: ArraySlice<UInt8>, into fields: inout CivilTime.Fields)
    -> Bool
  {
    word.withUnsafeBufferPointer { readTime(DateByteCursor($0), into: &fields) }
  }

  private static func readTime(_ start: DateByteCursor, into fields: inout CivilTime.Fields)
    -> Bool
  {
    var cursor = start
    var parts: [Int64] = []
    repeat {
      let digits = cursor.digitRun()
      guard (1...2).contains(digits), let value = cursor.number(digits: digits) else {
        return false
      }
      parts.append(value)
    } while parts.count < 3 && cursor.take(UInt8(ascii: ":"))
    guard parts.count >= 2 else { return false }
    if parts.count == 3, cursor.take(UInt8(ascii: ".")) {
      let fraction = cursor.digitRun()
      guard fraction > 0 else { return false }
      cursor.skip(fraction)
    }
    guard cursor.isAtEnd else { return false }
    fields.hour = parts[0]
    fields.minute = parts[1]
    fields.second = parts.count == 3 ? parts[2] : 0
    return true
  }
}

extension Int64 {
  /// The value of a run of 1 to 18 ASCII digits.
  init?(asciiDigits: ArraySlice<UInt8>) {
    guard (1...18).contains(asciiDigits.count) else { return nil }
    var value: Int64 = 0
    for byte in asciiDigits {
      guard byte &- 0x30 < 10 else { return nil }
      value = value * 10 + Int64(byte &- 0x30)
    }
    self = value
  }
}
