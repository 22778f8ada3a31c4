/// A read position in the bytes of one date string, with the few scans the date forms need.
struct DateByteCursor {
  let bytes: ArraySlice<UInt8>
  var index: Int

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    self.index = bytes.startIndex
  }

  var isAtEnd: Bool { index >= bytes.endIndex }
  var peek: UInt8? { index < bytes.endIndex ? bytes[index] : nil }

  /// The byte `offset` places ahead, if there is one.
  func byte(at offset: Int) -> UInt8? {
    index + offset < bytes.endIndex ? bytes[index + offset] : nil
  }

  /// Consumes `byte` if it is next.
  mutating func take(_ byte: UInt8) -> Bool {
    guard peek == byte else { return false }
    index += 1
    return true
  }

  /// How many ASCII digits follow.
  func digitRun() -> Int {
    var end = index
    while end < bytes.endIndex, bytes[end] &- 0x30 < 10 { end += 1 }
    return end - index
  }

  /// Consumes exactly `count` digits as a number, or nothing.
  mutating func number(digits count: Int) -> Int64? {
    guard count > 0, digitRun() >= count else { return nil }
    var value: Int64 = 0
    for _ in 0..<count {
      value = value * 10 + Int64(bytes[index] &- 0x30)
      index += 1
    }
    return value
  }

  mutating func skipSpaces() {
    while let byte = peek, byte == 0x20 || byte == 0x09 { index += 1 }
  }

  /// Consumes the rest as a zone: `Z`, `±hh`, `±hhmm`, `±hh:mm`, or a name from
  /// `DateWords.zones` optionally followed by an offset (`GMT+09:00`, `UTC-5`, `Etc/GMT`).
  /// Returns minutes east of UTC; nil when the rest is not one of those.
  mutating func zoneToEnd() -> Int64? {
    if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { return signedOffsetToEnd() }
    var word = bytes[index...]
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

  /// `±h`, `±hh`, `±hhmm`, `±hh:mm` running to the end.
  private mutating func signedOffsetToEnd() -> Int64? {
    let negative = peek == UInt8(ascii: "-")
    index += 1
    let hourDigits = digitRun()
    var hours: Int64?
    var minutes: Int64 = 0
    switch hourDigits {
    case 1, 2:
      hours = number(digits: hourDigits)
      if take(UInt8(ascii: ":")) {
        guard let value = number(digits: 2) else { return nil }
        minutes = value
      }
    case 4:
      hours = number(digits: 2)
      minutes = number(digits: 2) ?? 0
    default: return nil
    }
    guard let hours, isAtEnd, minutes < 60 else { return nil }
    let total = hours * 60 + minutes
    return negative ? -total : total
  }
}
