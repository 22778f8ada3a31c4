/// Proleptic Gregorian calendar arithmetic on plain integers, so dates before 1970 and up to
/// year 9999 work without Foundation's calendars (locale-dependent and slow on the hot path).
/// The day-count algorithms are Howard Hinnant's `days_from_civil` / `civil_from_days`
/// (public-domain derivations, re-written here), exact for every year.
enum CivilTime {
  /// Days from 1970-01-01 to the given date; the date must already be valid.
  static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = (month + 9) % 12  // March is 0, so February's leap day comes last.
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `days` after 1970-01-01.
  static func date(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  static func isLeap(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// For `month` from 1 to 12. A `switch` rather than an array lookup, so the compiler folds
  /// it into the validation every date read goes through.
  static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The fields of a date as a feed wrote them, before any check.
  struct Fields {
    var year: Int64
    var month: Int64 = 1
    var day: Int64 = 1
    /// Day of the year (ISO 8601 ordinal date, `2003-365`); overrides month and day when set.
    var ordinalDay: Int64? = nil
    var hour: Int64 = 0
    var minute: Int64 = 0
    var second: Int64 = 0
    /// Minutes east of UTC.
    var offsetMinutes: Int64 = 0

    /// Seconds since the epoch, or nil when a field is out of range (month 13, Feb 30, 25:00).
    /// A leap second (`:60`) and ISO 8601's `24:00:00` count forward into the next minute / day.
    var secondsSince1970: Int64? {
      guard (1...9999).contains(year) else { return nil }
      let dayNumber: Int64
      if let ordinalDay {
        guard ordinalDay >= 1, ordinalDay <= (CivilTime.isLeap(year) ? 366 : 365) else {
          return nil
        }
        dayNumber = CivilTime.days(year: year, month: 1, day: 1) + ordinalDay - 1
      } else {
        guard (1...12).contains(month), day >= 1, day <= CivilTime.daysIn(month: month, year: year)
        else { return nil }
        dayNumber = CivilTime.days(year: year, month: month, day: day)
      }
      let isEndOfDay = hour == 24 && minute == 0 && second == 0
      guard (0...23).contains(hour) || isEndOfDay, (0...59).contains(minute),
        (0...60).contains(second),
        abs(offsetMinutes) < 24 * 60
      else { return nil }
      return dayNumber * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
    }
  }
}
