/// Numbers in attribute values and element text, read from their bytes without making a
/// `String` first: a podcast feed has half a dozen on every episode, and the string (made,
/// trimmed, parsed, freed) cost more than the rest of the element's reading. Each reader
/// answers nil for text it does not read this way (`+5`, an exponent), and its caller then
/// reads that text as a `String`, which gives the same value for every text read here too.
extension XMLAttributes {
  /// The attribute's value as `MediaReader.number` reads its text: from the bytes when they
  /// are a plain decimal, else through the text.
  func decimal(_ name: StaticString) -> Double? {
    number(name, fromBytes: NamespacedNumber.decimal, fromText: MediaReader.number)
  }

  /// The attribute's value as `Int(_:)` reads its trimmed text: from the bytes when they are
  /// plain digits, else through the text.
  func integer(_ name: StaticString) -> Int? {
    number(name, fromBytes: NamespacedNumber.integer, fromText: { Int($0) })
  }

  /// `fromBytes` on the value's bytes when they need no decoding and it reads them; else
  /// `fromText` on the decoded, trimmed text (which gives the same answer, slower).
  @inline(__always)
  private func number<Number>(
    _ name: StaticString, fromBytes: (UnsafeBufferPointer<UInt8>) -> Number?,
    fromText: (String) -> Number?
  ) -> Number? {
    switch trimmedBytes(name) {
    case .absent: return nil
    case .plain(let bytes):
      if let value = fromBytes(bytes) { return value }
      if bytes.isEmpty { return nil }
    case .encoded: break
    }
    return trimmedValue(name).flatMap(fromText)
  }
}

/// Numbers in ASCII bytes, read the way Swift's initializers from text read them (the tests
/// hold both to the same answers), or nil for anything else.
enum NamespacedNumber {
  /// Decimal digits, with a leading `-`: what `Int(_:)` reads, except `+`, which is left to it.
  static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let negative = bytes.first == UInt8(ascii: "-")
    var index = negative ? 1 : 0
    guard index < bytes.count, bytes.count - index <= 18 else { return nil }
    var value = 0
    while index < bytes.count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value * 10 + Int(digit)
      index += 1
    }
    return negative ? -value : value
  }

  /// `123`, `-1.5`, `45.0`: up to 15 significant digits and 22 after the point, so that the
  /// digits and the power of ten are both exact doubles and the one division rounds
  /// correctly, giving what `Double(_:)` gives.
  static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let negative = bytes.first == UInt8(ascii: "-")
    var index = negative ? 1 : 0
    var mantissa: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
    var sawPoint = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "."), !sawPoint {
        sawPoint = true
      } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
        digits += 1
        if sawPoint { fractionDigits += 1 }
        guard digits <= 15, fractionDigits <= 22 else { return nil }
      } else {
        return nil
      }
      index += 1
    }
    guard digits > 0 else { return nil }
    let value = fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / power(fractionDigits)
    return negative ? -value : value
  }

  /// 10^`exponent` (at most 22), exact in a double: each product of tens up to 10²² is. Made
  /// by multiplying, as most decimals here have one or two digits after the point; a table in
  /// a global cost a `swift_once` call and a bounds check at every number.
  @inline(__always)
  private static func power(_ exponent: Int) -> Double {
    var value = 10.0
    var remaining = exponent &- 1
    while remaining > 0 {
      value *= 10
      remaining &-= 1
    }
    return value
  }
}
