import Testing

@testable import FeedParser

// The fast path for common date shapes (`CommonDateShapes`) may only save work: on any text it
// answers, it must give what the general forms give, and `parse` must always equal the general
// path. These tests generate dates around every edge the shapes have and compare the two.

/// Texts the two paths disagree on, and how many of them the fast path answered.
private struct Comparison {
  var disagreements: [String] = []
  var fastAnswers = 0
  var total = 0

  mutating func compare(_ text: String) {
    total += 1
    let general = FeedDateParser.parseAnyForm(text)
    let fast = CommonDateShapes.seconds(text)
    if fast != nil { fastAnswers += 1 }
    if (fast != nil && fast != general) || FeedDateParser.parse(text) != general {
      disagreements.append(
        "\(text.debugDescription): fast \(String(describing: fast)), general "
          + String(describing: general))
    }
  }
}

private func pick<T>(_ choices: [T], _ generator: inout SplitMix64) -> T {
  choices[Int(generator.next() % UInt64(choices.count))]
}

/// Mostly one of `usual`, sometimes one of `edges`, so most generated dates are in a shape
/// the fast path takes and each has a few fields at an edge.
private func pick<T>(_ usual: [T], else edges: [T], _ generator: inout SplitMix64) -> T {
  generator.next() % 4 == 0 ? pick(edges, &generator) : pick(usual, &generator)
}

private let monthNames = [
  "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
]
private let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

/// Years at the calendar's edges: the ends of RFC 3339's range, leap and non-leap centuries.
private let usualYears = ["1999", "2024", "2026"]
private let edgeYears = [
  "0000", "0001", "0100", "1600", "1900", "1969", "1970", "2000", "2023", "2024", "2100", "9999",
]

/// Day numbers around every month length, including the impossible ones.
private let usualDays = ["01", "1", "18", "28"]
private let edgeDays = ["00", "01", "1", "9", "09", "10", "28", "29", "30", "31", "32", "99"]

/// Times valid and not: the end of the day, `24:00`, a leap second, fields one past their range.
private let usualTimes = ["00:00:00", "23:59:59", "20:06:40", "20:06", "12:00:00"]
private let edgeTimes = [
  "24:00:00", "24:00:01", "25:00:00", "12:60:00", "12:59:60", "12:59:61", "9:05:03", "20:6:40",
  "20:06:4", "20:06:40:07", "20:06:40.123", "2006:40",
]

/// Zones after an RFC 822 date: the fast path's, the table's names, and malformed offsets.
private let usualRFC822Zones = ["+0000", "-0000", "+0900", "-0500", "+0530", "GMT", "UTC", ""]
private let edgeRFC822Zones: [String] =
  [
    "+2359", "-2359", "+2400", "+0960", "-9999", "+09", "+09:00", "+9", "+090", "+09001", "+gmt",
    "gmt", "Gmt", "UT", "ut", "Z", "z", "GMT+9", "GMT-05:00", "Etc/GMT", "(JST)", "+0900 (JST)",
    "GMT blah", "zz",
  ] + DateWords.zones.keys.flatMap { [$0, $0.uppercased()] }

/// Zones after an RFC 3339 date, valid and not.
private let usualRFC3339Zones = ["", "Z", "+00:00", "+09:00", "-05:00", "+0900"]
private let edgeRFC3339Zones = [
  "z", "-00:00", "-0500", "+09", "-23:59", "+24:00", "+09:60", "+9", "+09:0", "+090", "+09:001",
  "+0900:00", " Z", " +09:00", "Zx", "ZZ", " UTC", "utc", "+", "-",
]

private let usualFractions = ["", ".123", ".123456"]
private let edgeFractions = [",5", ".", ",", ".123456789012345678901234567890"]

private func rfc822Date(_ generator: inout SplitMix64) -> String {
  let weekday = pick(weekdayNames, else: ["Xyz", "Thursday", "Wed.", "Mo"], &generator)
  var text = pick(["\(weekday), ", ""], else: ["\(weekday) ", "\(weekday),"], &generator)
  text += pick(usualDays, else: edgeDays, &generator) + pick([" "], else: ["-", "  "], &generator)
  let month = pick(monthNames, else: ["Sept", "November", "Foo", "Ma"], &generator)
  text += pick([month], else: [month.uppercased(), month.lowercased()], &generator)
  text += pick([" "], else: ["-"], &generator)
  text += pick(usualYears, else: edgeYears + ["26", "99", "12345"], &generator)
  if generator.next() % 8 != 0 { text += " " + pick(usualTimes, else: edgeTimes, &generator) }
  let zone = pick(usualRFC822Zones, else: edgeRFC822Zones, &generator)
  if !zone.isEmpty { text += pick([" "], else: [""], &generator) + zone }
  return text
}

private func rfc3339Date(_ generator: inout SplitMix64) -> String {
  let month = String(1 + generator.next() % 13).leftPadded(to: 2)
  var text =
    pick(usualYears, else: edgeYears, &generator) + "-"
    + pick([month], else: ["00", "1", "012"], &generator)
  text += "-" + pick(usualDays, else: edgeDays, &generator)
  if generator.next() % 8 != 0 {
    text += pick(["T"], else: ["t", " ", "  ", "T "], &generator)
    text += pick(usualTimes, else: edgeTimes, &generator)
    text += pick(usualFractions, else: edgeFractions, &generator)
    text += pick(usualRFC3339Zones, else: edgeRFC3339Zones, &generator)
  }
  return text
}

/// Surrounding white space the general path trims, sometimes.
private func padded(_ text: String, _ generator: inout SplitMix64) -> String {
  pick([""], else: [" ", "\n\t "], &generator) + text + pick([""], else: [" ", "\r\n"], &generator)
}

@Test func commonShapesTakeTheFastPath() {
  let common = [
    "Wed, 18 Nov 2026 20:06:40 +0900", "Wed, 18 Nov 2026 10:59:27 GMT",
    "Wed, 18 Nov 2026 05:52:14 -0500", "wed, 18 nov 2026 05:52:14 utc", "18 Nov 2026 05:52 Z",
    "Sun, 1 Mar 2026 00:00:00 UT", "Thu, 01 Jan 2004", "  Thu, 01 Jan 2004 19:48:21 GMT\n",
    "2026-11-18T20:06:40Z", "2026-11-18T20:06:40+09:00", "2026-11-18T20:06:40.123-05:00",
    "2026-11-18t20:06:40z", "2026-11-18 20:06:40", "2026-11-18T20:06+0900", "2026-11-18",
  ]
  for text in common {
    #expect(CommonDateShapes.seconds(text) != nil, "\(text)")
    #expect(CommonDateShapes.seconds(text) == FeedDateParser.parseAnyForm(text), "\(text)")
  }
}

/// Every month and day of leap and common years, in both shapes.
@Test func fastPathAgreesOnEveryDayOfTheCalendar() {
  var comparison = Comparison()
  for year in ["1900", "2000", "2023", "2024", "0001", "9999"] {
    for (index, month) in monthNames.enumerated() {
      let number = String(index + 1).leftPadded(to: 2)
      for day in 0...32 {
        let dayText = String(day).leftPadded(to: 2)
        comparison.compare("Fri, \(dayText) \(month) \(year) 23:59:59 +0000")
        comparison.compare("\(day) \(month) \(year) 00:00 GMT")
        comparison.compare("\(year)-\(number)-\(dayText)T23:59:59Z")
        comparison.compare("\(year)-\(number)-\(dayText)T00:00:00+01:00")
      }
    }
  }
  #expect(comparison.disagreements.isEmpty, "\(comparison.disagreements.prefix(20))")
  #expect(comparison.fastAnswers > comparison.total / 2)
}

/// The generated dates of each shape, with random padding: seeded, so a failure repeats.
@Test(arguments: ["rfc822", "rfc3339"])
func fastPathAgreesOnGeneratedDates(shape: String) {
  let isRFC822 = shape == "rfc822"
  var generator = SplitMix64(seed: isRFC822 ? 0x822_DA7E : 0x3339_DA7E)
  var comparison = Comparison()
  for _ in 0..<25_000 {
    let date = isRFC822 ? rfc822Date(&generator) : rfc3339Date(&generator)
    comparison.compare(padded(date, &generator))
  }
  #expect(comparison.disagreements.isEmpty, "\(comparison.disagreements.prefix(20))")
  #expect(comparison.fastAnswers > comparison.total / 20)
}

/// Valid dates with one to three bytes replaced, dropped or inserted: the near misses the
/// shapes must refuse or read exactly as the general path does.
@Test func fastPathAgreesOnMutatedDates() {
  var generator = SplitMix64(seed: 0xB17E_DA7E)
  let alphabet = Array("0123456789 :-+.,/TtZzGMTUCgmtuc\t\n(é".utf8)
  var comparison = Comparison()
  for round in 0..<40_000 {
    let seconds =
      FeedDateParser.firstRFC3339Second
      + Int64(
        generator.next()
          % UInt64(
            FeedDateParser.lastRFC3339Second
              - FeedDateParser.firstRFC3339Second + 1))
    var bytes = Array(
      (round % 2 == 0 ? FeedDateParser.rfc3339(seconds) : rfc822Text(seconds, &generator)).utf8)
    for _ in 0..<(1 + generator.next() % 3) {
      let position = Int(generator.next() % UInt64(bytes.count))
      switch generator.next() % 3 {
      case 0: bytes[position] = pick(alphabet, &generator)
      case 1: bytes.remove(at: position)
      default: bytes.insert(pick(alphabet, &generator), at: position)
      }
      if bytes.isEmpty { break }
    }
    comparison.compare(String(decoding: bytes, as: UTF8.self))
  }
  #expect(comparison.disagreements.isEmpty, "\(comparison.disagreements.prefix(20))")
  #expect(comparison.fastAnswers > comparison.total / 50)
}

/// A fraction long enough to pass the general path's length limit is refused by both.
@Test func fastPathKeepsTheLengthLimit() {
  let long = "2026-11-18T20:06:40." + String(repeating: "1", count: 300) + "Z"
  #expect(CommonDateShapes.seconds(long) == nil)
  #expect(FeedDateParser.parse(long) == nil)
  let limit = "2026-11-18T20:06:40." + String(repeating: "1", count: 256 - 21) + "Z"
  #expect(CommonDateShapes.seconds(limit) == FeedDateParser.parseAnyForm(limit))
  #expect(FeedDateParser.parse(limit) != nil)
}

/// An RFC 822 rendering of `seconds` in a random zone, for the mutation test.
private func rfc822Text(_ seconds: Int64, _ generator: inout SplitMix64) -> String {
  let offsetMinutes = Int64(generator.next() % 1_439) - 719
  let local = min(
    max(seconds + offsetMinutes * 60, FeedDateParser.firstRFC3339Second),
    FeedDateParser.lastRFC3339Second)
  let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
  let date = CivilTime.date(days: days)
  let secondOfDay = local - days * 86_400
  let weekday = weekdayNames[Int(((days % 7) + 7 + 3) % 7)]
  let zone = pick(
    [
      (offsetMinutes < 0 ? "-" : "+")
        + String(abs(offsetMinutes) / 60 * 100 + abs(offsetMinutes) % 60).leftPadded(to: 4),
      "GMT",
    ], &generator)
  return "\(weekday), \(String(date.day).leftPadded(to: 2)) \(monthNames[Int(date.month) - 1]) "
    + "\(String(date.year).leftPadded(to: 4)) \(String(secondOfDay / 3600).leftPadded(to: 2)):"
    + "\(String(secondOfDay / 60 % 60).leftPadded(to: 2)):"
    + "\(String(secondOfDay % 60).leftPadded(to: 2)) \(zone)"
}

extension String {
  /// Zero-padded to `width` characters, as the date forms write numbers.
  func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
