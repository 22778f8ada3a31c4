import Testing

@testable import FeedParser

/// Month lengths agree with the day count for every month of every year the parser reads, and
/// the day count and its inverse agree on every day: the calendar is checked against itself
/// over its whole range.
@Test func monthLengthsMatchTheDayCount() {
  var mismatches: [String] = []
  for year in Int64(1)...9999 {
    for month in Int64(1)...12 {
      let first = CivilTime.days(year: year, month: month, day: 1)
      let next =
        month == 12
        ? CivilTime.days(year: year + 1, month: 1, day: 1)
        : CivilTime.days(year: year, month: month + 1, day: 1)
      if CivilTime.daysIn(month: month, year: year) != next - first {
        mismatches.append("\(year)-\(month)")
      }
      let last = CivilTime.date(days: next - 1)
      if last != (year, month, CivilTime.daysIn(month: month, year: year)) {
        mismatches.append("\(year)-\(month) ends on \(last)")
      }
    }
  }
  #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
  #expect(CivilTime.days(year: 1970, month: 1, day: 1) == 0)
}
