/// RFC 3339 text for an instant, written digit by digit into the new string's own storage: the
/// JSON output formats every date, and building it through an array per field cost about 4,900
/// instructions a date.
enum RFC3339Text {
  /// `2011-10-19T01:35:15Z`; `seconds` must lie in years 0001 to 9999.
  static func utc(_ seconds: Int64) -> String {
    String(unsafeUninitializedCapacity: length) { buffer in
      write(seconds, to: buffer.baseAddress!)
      return length
    }
  }

  /// Writes the `length` bytes of `utc(seconds)` to `out`, for writers that keep bytes (the
  /// JSON output: making a `String` only to copy it out again was most of a date's cost).
  static func write(_ seconds: Int64, to out: UnsafeMutablePointer<UInt8>) {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let date = CivilTime.date(days: days)
    writeTwoDigits(date.year / 100, at: out)
    writeTwoDigits(date.year % 100, at: out + 2)
    out[4] = UInt8(ascii: "-")
    writeTwoDigits(date.month, at: out + 5)
    out[7] = UInt8(ascii: "-")
    writeTwoDigits(date.day, at: out + 8)
    out[10] = UInt8(ascii: "T")
    writeTwoDigits(secondOfDay / 3600, at: out + 11)
    out[13] = UInt8(ascii: ":")
    writeTwoDigits(secondOfDay / 60 % 60, at: out + 14)
    out[16] = UInt8(ascii: ":")
    writeTwoDigits(secondOfDay % 60, at: out + 17)
    out[19] = UInt8(ascii: "Z")
  }

  /// Every instant in range is this long: four-digit years, two-digit fields.
  static let length = 20

  /// `value`, from 0 to 99, as two digits.
  @inline(__always)
  private static func writeTwoDigits(_ value: Int64, at out: UnsafeMutablePointer<UInt8>) {
    let twoDigits = UInt8(truncatingIfNeeded: value)
    out[0] = twoDigits / 10 &+ 0x30
    out[1] = twoDigits % 10 &+ 0x30
  }
}
