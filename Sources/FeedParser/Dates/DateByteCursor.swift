/// A read position in the UTF-8 of one date, with the scans the date forms need: the one cursor
/// of both paths. The common shapes (`CommonDateShapes`) read the string's own bytes in place,
/// so letters are compared in either case; the general forms read a lower-cased copy. Index and
/// value arithmetic wraps where neither can overflow, which spares the checks on the fast path.
struct DateByteCursor {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index: Int
  private let end: Int

  init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, to end: Int? = nil) {
    self.bytes = bytes
    self.index = start
    self.end = end ?? bytes.count
  }

  @inline(__always)
  var isAtEnd: Bool { index >= end }

  /// The byte `offset` places ahead, if there is one.
  @inline(__always)
  func byte(at offset: Int) -> UInt8? { index &+ offset < end ? bytes[index &+ offset] : nil }

  /// The next byte, if there is one.
  @inline(__always)
  var peek: UInt8? { index < end ? bytes[index] : nil }

  @inline(__always)
  var nextIsLetter: Bool { index < end && (bytes[index] | 0x20) &- 0x61 < 26 }

  /// Consumes `byte` if it is next.
  @inline(__always)
  mutating func take(_ byte: UInt8) -> Bool {
    guard index < end, bytes[index] == byte else { return false }
    index &+= 1
    return true
  }

  /// Consumes `lowerCaseLetter` in either case if it is next.
  @inline(__always)
  mutating func takeLetter(_ lowerCaseLetter: UInt8) -> Bool {
    guard index < end, bytes[index] | 0x20 == lowerCaseLetter else { return false }
    index &+= 1
    return true
  }

  /// Consumes exactly `count` digits (at most 18) as a number, or nothing. Index and value
  /// arithmetic wraps because neither can overflow, which spares the checks.
  @inline(__always)
  mutating func number(digits count: Int) -> Int64? {
    guard end &- index >= count else { return nil }
    var value: Int64 = 0
    for offset in 0..<count {
      let digit = bytes[index &+ offset] &- 0x30
      guard digit < 10 else { return nil }
      value = value &* 10 &+ Int64(digit)
    }
    index &+= count
    return value
  }

  /// Consumes `hh:mm` and an optional `:ss` (both shapes write the time of day the same way)
  /// into `fields`. Nil when the text is not in that form; otherwise whether seconds were read.
  mutating func clock(into fields: inout CivilTime.Fields) -> Bool? {
    guard let hour = number(digits: 2), take(UInt8(ascii: ":")),
      let minute = number(digits: 2)
    else { return nil }
    fields.hour = hour
    fields.minute = minute
    guard take(UInt8(ascii: ":")) else { return false }
    guard let second = number(digits: 2) else { return nil }
    fields.second = second
    return true
  }

  /// How many ASCII digits follow.
  func digitRun() -> Int {
    var next = index
    while next < end, bytes[next] &- 0x30 < 10 { next += 1 }
    return next - index
  }

  /// Consumes a run of digits; how many there were.
  mutating func skipDigits() -> Int {
    let count = digitRun()
    index += count
    return count
  }

  /// Consumes `count` bytes already looked at.
  mutating func skip(_ count: Int) { index += count }

  /// Consumes spaces and tabs.
  mutating func skipSpaces() {
    while let byte = peek, byte == 0x20 || byte == 0x09 { index += 1 }
  }

  /// Consumes three letters in either case as one number, to compare with `key(_:)` of a
  /// name in one step. Only an ASCII letter and its upper-case form read as the lower-case
  /// letter with bit 5 set, so no other bytes can equal a name's key.
  @inline(__always)
  mutating func threeLetters() -> UInt32? {
    guard end &- index >= 3 else { return nil }
    let letters =
      UInt32(bytes[index] | 0x20) << 16 | UInt32(bytes[index &+ 1] | 0x20) << 8
      | UInt32(bytes[index &+ 2] | 0x20)
    index &+= 3
    return letters
  }

  /// A three-letter lower-case name as `threeLetters()` reads it. Always inlined, so a name
  /// written in a `switch` case is a constant.
  @inline(__always)
  static func key(_ name: StaticString) -> UInt32 {
    let letters = name.utf8Start
    return UInt32(letters[0]) << 16 | UInt32(letters[1]) << 8 | UInt32(letters[2])
  }

  /// Whether the rest is `name` (lower case) in either case; consumes it if so.
  mutating func restIs(_ name: StaticString) -> Bool {
    guard end - index == name.utf8CodeUnitCount else { return false }
    let letters = name.utf8Start
    for offset in 0..<name.utf8CodeUnitCount where bytes[index + offset] | 0x20 != letters[offset] {
      return false
    }
    index = end
    return true
  }

  /// `±h`, `±hh`, `±hhmm` or `±hh:mm` running to the end: minutes east of UTC. Nil for any
  /// other offset, and for minutes past 59. The two-digit hour every feed writes is tried
  /// first, so the fast path pays for no digit count.
  @inline(__always)
  mutating func signedOffsetToEnd() -> Int64? {
    let negative: Bool
    if take(UInt8(ascii: "+")) {
      negative = false
    } else if take(UInt8(ascii: "-")) {
      negative = true
    } else {
      return nil
    }
    let hours: Int64
    var minutes: Int64 = 0
    if let twoDigits = number(digits: 2) {
      hours = twoDigits
      if let value = number(digits: 2) {
        minutes = value
      } else if take(UInt8(ascii: ":")) {
        guard let value = number(digits: 2) else { return nil }
        minutes = value
      }
    } else if let oneDigit = number(digits: 1) {
      hours = oneDigit
      if take(UInt8(ascii: ":")) {
        guard let value = number(digits: 2) else { return nil }
        minutes = value
      }
    } else {
      return nil
    }
    guard isAtEnd, minutes < 60 else { return nil }
    let total = hours * 60 + minutes
    return negative ? -total : total
  }

  /// Consumes the rest (lower case) as a zone: `z`, `±hh`, `±hhmm`, `±hh:mm`, or a name from
  /// `DateWords.zones` optionally followed by an offset (`gmt+09:00`, `utc-5`, `etc/gmt`).
  /// Returns minutes east of UTC; nil when the rest is not one of those.
  mutating func zoneToEnd() -> Int64? {
    if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { return signedOffsetToEnd() }
    var word = bytes[index..<end]
    if word.starts(with: "etc/".utf8) { word = word.dropFirst(4) }
    let nameEnd = word.firstIndex { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
    let name = word[..<(nameEnd ?? word.endIndex)]
    guard !name.isEmpty, name.allSatisfy({ $0 &- 0x61 < 26 }) else { return nil }
    let key = String(decoding: name, as: UTF8.self)
    guard let nameEnd else { return DateWords.zones[key] ?? 0 }
    // `GMT+1`, `UTC-05:00`: an offset from the named base; only UTC-like bases make sense here.
    guard DateWords.zones[key] == 0 else { return nil }
    index = nameEnd
    return signedOffsetToEnd()
  }
}
