/// The syntax of an XML reference being read byte by byte (XML 1.0 §4.1): `&name;`,
/// `&#digits;`, `&#xhex;`, over the bytes of an open reference starting at `&`. Static
/// functions, so the filter's buffer is borrowed, never copied.
enum XMLReferenceSyntax {
  enum Kind {
    case named(ArraySlice<UInt8>)
    /// `wellFormed` is false for HTML's `&#X41;`, which XML does not allow (only `&#x`).
    case numeric(UInt32, wellFormed: Bool)
  }

  /// What the next byte does to the reference.
  enum Next {
    /// It is part of the reference.
    case extends
    /// It is the `;` that completes it.
    case ends
    /// The `&` before it starts no reference: the `&` is bare, the byte is text.
    case bare
  }

  /// How far a reference has been read: the scan `XMLRepairFilter` keeps for an open
  /// reference, and runs over whole references in its fast path, so both follow one rule.
  struct Scan {
    /// Bytes after the `&` so far.
    private(set) var length = 0
    private var isNumeric = false
    private var isHex = false

    /// Reads the next byte; `longestName` bounds a name (or the digits) so an `&` followed by
    /// a long run of letters is found bare without holding the run back.
    mutating func next(_ byte: UInt8, longestName: Int) -> Next {
      if isNumeric {
        let digits = length - (isHex ? 2 : 1)
        if byte == UInt8(ascii: ";") { return digits > 0 ? .ends : .bare }
        if length == 1 && (byte | 0x20) == UInt8(ascii: "x") {
          isHex = true
        } else {
          let isDigit = isHex ? hexValue(byte) != nil : byte &- 0x30 < 10
          guard isDigit && digits < longestName else { return .bare }
        }
      } else if length == 0 {
        if byte == UInt8(ascii: "#") {
          isNumeric = true
        } else if !isNameStart(byte) {
          return .bare
        }
      } else {
        if byte == UInt8(ascii: ";") { return .ends }
        guard isNameByte(byte) && length < longestName else { return .bare }
      }
      length += 1
      return .extends
    }
  }

  /// What a complete reference (without its `;`) is.
  static func kind(of bytes: [UInt8]) -> Kind {
    guard bytes.count >= 2, bytes[1] == UInt8(ascii: "#") else { return .named(bytes.dropFirst()) }
    let value = bytes.withUnsafeBytes {
      numericValue(UnsafeRawBufferPointer(rebasing: $0.dropFirst()))
    }
    return .numeric(value, wellFormed: bytes[2] != UInt8(ascii: "X"))
  }

  /// The value of a syntactically complete numeric reference's body (`#233`, `#xE9`).
  static func numericValue(_ body: UnsafeRawBufferPointer) -> UInt32 {
    let isHex = (body[1] | 0x20) == UInt8(ascii: "x")
    var value: UInt32 = 0
    for byte in body.dropFirst(isHex ? 2 : 1) {
      let digit = isHex ? UInt32(hexValue(byte) ?? 0) : UInt32(byte &- 0x30)
      // Saturate: any value past U+10FFFF is equally not a character.
      value = min(value * (isHex ? 16 : 10) + digit, 0x11_0000)
    }
    return value
  }

  /// The index after the `;` of a reference starting at `start` (an `&`) that is complete
  /// within `input`; nil when it is not complete or not syntactically a reference.
  static func completeEnd(_ input: UnsafeRawBufferPointer, from start: Int, longestName: Int)
    -> Int?
  {
    var scan = Scan()
    var index = start + 1
    while index < input.count {
      switch scan.next(input[index], longestName: longestName) {
      case .extends: index += 1
      case .ends: return index + 1
      case .bare: return nil
      }
    }
    return nil
  }

  /// The character a complete reference's body (`lt`, `#233`, `#xE9`) stands for without a
  /// DTD: one of the five predefined entities, or a well-formed character reference to an XML
  /// character. Nil for any other name, for HTML's `&#X41;` and for forbidden characters.
  static func character(ofBody body: UnsafeRawBufferPointer) -> UInt32? {
    if body.first == UInt8(ascii: "#") {
      guard body.count >= 2, body[1] != UInt8(ascii: "X") else { return nil }
      let value = numericValue(body)
      return isXMLCharacter(value) ? value : nil
    }
    // Byte by byte: a generic `elementsEqual` against a `String.UTF8View` cost about 200
    // instructions a reference (callgrind, a 5 MB podcast feed: 3.5 M of its 444 M).
    switch body.count {
    case 2 where body[1] == UInt8(ascii: "t"):
      if body[0] == UInt8(ascii: "l") { return 0x3C }
      if body[0] == UInt8(ascii: "g") { return 0x3E }
    case 3
    where body[0] == UInt8(ascii: "a") && body[1] == UInt8(ascii: "m")
      && body[2] == UInt8(ascii: "p"):
      return 0x26
    case 4 where body[2] == UInt8(ascii: "o"):
      if body[0] == UInt8(ascii: "q") && body[1] == UInt8(ascii: "u")
        && body[3] == UInt8(ascii: "t")
      {
        return 0x22
      }
      if body[0] == UInt8(ascii: "a") && body[1] == UInt8(ascii: "p")
        && body[3] == UInt8(ascii: "s")
      {
        return 0x27
      }
    default: break
    }
    return nil
  }

  /// XML's five predefined entities (§4.6), which need no declaration.
  static func isPredefined<Name: Collection<UInt8>>(_ name: Name) -> Bool {
    switch name.count {
    case 2: return name.elementsEqual("lt".utf8) || name.elementsEqual("gt".utf8)
    case 3: return name.elementsEqual("amp".utf8)
    case 4: return name.elementsEqual("quot".utf8) || name.elementsEqual("apos".utf8)
    default: return false
    }
  }

  /// XML 1.0 §2.2 `Char`.
  static func isXMLCharacter(_ value: UInt32) -> Bool {
    switch value {
    case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x1_0000...0x10_FFFF: true
    default: false
    }
  }

  /// Appends `&#NNN;` in decimal.
  static func appendCharacterReference(_ value: UInt32, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "&"))
    output.append(UInt8(ascii: "#"))
    var divisor: UInt32 = 1
    while divisor <= value / 10 { divisor *= 10 }
    var rest = value
    repeat {
      output.append(UInt8(rest / divisor) + 0x30)
      rest %= divisor
      divisor /= 10
    } while divisor > 0
    output.append(UInt8(ascii: ";"))
  }

  /// ASCII name-start characters of XML 1.0 §2.3, and any byte of a non-ASCII character
  /// (the filter cannot decode it, and libxml2 will judge the name).
  private static func isNameStart(_ byte: UInt8) -> Bool {
    (byte | 0x20) &- 0x61 < 26 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
      || byte >= 0x80
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    isNameStart(byte) || byte &- 0x30 < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    if byte &- 0x30 < 10 { return byte &- 0x30 }
    let lower = byte | 0x20
    return lower &- 0x61 < 6 ? lower &- 0x61 + 10 : nil
  }
}
