import FeedPullSupport

/// `&…;` in HTML text and attribute values: which are references, and what they stand for.
///
/// A named reference counts with its `;` and a name HTML5 defines (`&nbsp;`, `&eacute;`); a
/// numeric one (`&#233;`, `&#xE9;`) with or without its `;`. Anything else starting with `&`
/// is a literal ampersand, which the sanitizer writes `&amp;`: feedparser does the same, and
/// it keeps text like `AT&T;` or `&foo` readable instead of losing it.
enum HTMLCharacterReference {
  /// What starts at an `&`.
  enum Reading {
    /// A reference the output may keep as written (a defined name, or a number naming a
    /// character other than a control); `end` is just past it.
    case keep(end: Int)
    /// A numeric reference whose character cannot stay as written (no `;`, a control, zero,
    /// a surrogate, past U+10FFFF): `scalar` replaces it (nil: nothing does).
    case replace(end: Int, scalar: Unicode.Scalar?)
    /// A literal `&`.
    case literal
  }

  /// The longest name worth looking up (HTML5's longest is 31 bytes with its `;`).
  static let longestName = 32

  /// Reads the reference starting at `input[start]`, an `&`.
  static func read(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> Reading {
    if let common = commonReference(input, at: start) { return .keep(end: common.end) }
    let count = input.count
    var index = start + 1
    guard index < count else { return .literal }
    if input[index] == UInt8(ascii: "#") {
      index += 1
      var isHex = false
      if index < count, input[index] | 0x20 == UInt8(ascii: "x") {
        isHex = true
        index += 1
      }
      let digitsStart = index
      var value: UInt32 = 0
      while index < count, let digit = digitValue(input[index], hex: isHex) {
        value = value > 0x10_FFFF ? value : value &* (isHex ? 16 : 10) &+ UInt32(digit)
        index += 1
      }
      guard index > digitsStart else { return .literal }
      let terminated = index < count && input[index] == UInt8(ascii: ";")
      let end = terminated ? index + 1 : index
      let scalar = character(value)
      // Kept as written only when it names that very character (or a windows-1252 one, which
      // every HTML reader maps the same way).
      if terminated, let scalar, !isRemovedControl(scalar),
        scalar.value == value || (value >= 0x80 && value <= 0x9F)
      {
        return .keep(end: end)
      }
      return .replace(end: end, scalar: scalar.flatMap { isRemovedControl($0) ? nil : $0 })
    }
    let nameStart = index
    guard let semicolon = nameEnd(input, from: nameStart) else { return .literal }
    let name = input.baseAddress! + nameStart
    let length = semicolon - nameStart
    if commonName(name, length) != nil { return .keep(end: semicolon + 1) }
    return HTMLEntities.characters(name, length) == nil ? .literal : .keep(end: semicolon + 1)
  }

  /// Where the name of a named reference starting at `nameStart` has its `;`: a letter, then
  /// letters and digits. Nil when there is none.
  @inline(__always)
  private static func nameEnd(_ input: UnsafeBufferPointer<UInt8>, from nameStart: Int) -> Int? {
    let count = input.count
    var index = nameStart
    while index < count, index - nameStart < longestName, input[index].isASCIIAlphanumeric {
      index += 1
    }
    guard index > nameStart, index < count, input[index] == UInt8(ascii: ";"),
      input[nameStart].isASCIILetter
    else { return nil }
    return index
  }

  /// A reference to one of the common names (`commonName`) at `start`, known from one load of
  /// the eight bytes after the `&`: where it ends and its character. Nil for anything else
  /// (then the name is read byte by byte).
  @inline(__always)
  private static func commonReference(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> (
    end: Int, utf8: UInt64, count: Int
  )? {
    // Up to eight bytes (a reference often ends its text: `&hellip;</p>`), the rest zero.
    let available = input.count &- start &- 1
    guard available >= 3 else { return nil }
    let name = input.baseAddress! + (start &+ 1)
    let word =
      available >= 8
      ? UnsafeRawPointer(name).loadUnaligned(as: UInt64.self)
      : ByteWord.load(name, count: available)
    // The first `;` is exact (`ByteWord.matches`); the name is every byte before it.
    let semicolons = ByteWord.matches(word, UInt8(ascii: ";"))
    guard semicolons != 0 else { return nil }
    let length = ByteWord.firstMatch(semicolons)
    guard length >= 2 && length <= 6 else { return nil }
    let key = word & (UInt64(1) &<< UInt64(length &* 8) &- 1)
    guard let (utf8, count) = commonName(length, key) else { return nil }
    return (start &+ length &+ 2, utf8, count)
  }

  /// The names most references in feeds use (`amp`, `lt`, `gt`, `quot`, `apos`, `nbsp`,
  /// `copy`, `reg`, `bull`, the dashes, quotation marks and guillemets, `trade`, `hellip`,
  /// `middot`, `euro`, and the accented letters of French and German text: `eacute`,
  /// `egrave`, `agrave`, `ccedil`, `auml`, `ouml`, `uuml`), known without a table look-up (a
  /// process that meets only these never builds HTML5's table, about a million instructions):
  /// the character as UTF-8 in the low bytes of a word (little-endian) and how many bytes, or
  /// nil for another name.
  @inline(__always)
  private static func commonName(_ name: UnsafePointer<UInt8>, _ length: Int) -> (UInt64, Int)? {
    guard length >= 2 && length <= 6 else { return nil }
    return commonName(length, ByteWord.load(name, count: length))
  }

  /// `commonName` of the `length` bytes in the low end of `word` (the rest zero).
  @inline(__always)
  private static func commonName(_ length: Int, _ word: UInt64) -> (UInt64, Int)? {
    switch (length, word) {
    case (2, 0x746C): return (0x3C, 1)  // lt
    case (2, 0x7467): return (0x3E, 1)  // gt
    case (3, 0x70_6D61): return (0x26, 1)  // amp
    case (3, 0x67_6572): return (0xAEC2, 2)  // reg
    case (4, 0x746F_7571): return (0x22, 1)  // quot
    case (4, 0x736F_7061): return (0x27, 1)  // apos
    case (4, 0x7073_626E): return (0xA0C2, 2)  // nbsp
    case (4, 0x7970_6F63): return (0xA9C2, 2)  // copy
    case (4, 0x6C6C_7562): return (0xA2_80E2, 3)  // bull
    case (4, 0x6F72_7565): return (0xAC_82E2, 3)  // euro
    case (4, 0x6C6D_7561): return (0xA4C3, 2)  // auml
    case (4, 0x6C6D_756F): return (0xB6C3, 2)  // ouml
    case (4, 0x6C6D_7575): return (0xBCC3, 2)  // uuml
    case (5, 0x68_7361_646D): return (0x94_80E2, 3)  // mdash
    case (5, 0x68_7361_646E): return (0x93_80E2, 3)  // ndash
    case (5, 0x6F_7571_616C): return (0xABC2, 2)  // laquo
    case (5, 0x6F_7571_6172): return (0xBBC2, 2)  // raquo
    case (5, 0x6F_7571_736C): return (0x98_80E2, 3)  // lsquo
    case (5, 0x6F_7571_7372): return (0x99_80E2, 3)  // rsquo
    case (5, 0x6F_7571_646C): return (0x9C_80E2, 3)  // ldquo
    case (5, 0x6F_7571_6472): return (0x9D_80E2, 3)  // rdquo
    case (5, 0x65_6461_7274): return (0xA2_84E2, 3)  // trade
    case (6, 0x7069_6C6C_6568): return (0xA6_80E2, 3)  // hellip
    case (6, 0x746F_6464_696D): return (0xB7C2, 2)  // middot
    case (6, 0x6574_7563_6165): return (0xA9C3, 2)  // eacute
    case (6, 0x6576_6172_6765): return (0xA8C3, 2)  // egrave
    case (6, 0x6576_6172_6761): return (0xA0C3, 2)  // agrave
    case (6, 0x6C69_6465_6363): return (0xA7C3, 2)  // ccedil
    default: return nil
    }
  }

  /// What the text at an `&` reads as, decoded: a reference's one or two characters (a
  /// literal `&` for none) as UTF-8 in the low `count` bytes of `utf8` (little-endian), and
  /// where the text goes on. One pass and one look-up, nothing allocated: the text renderer
  /// decodes every reference of every field with it (`read` and then `appendDecoded` looked a
  /// name up twice and went through an array).
  static func decode(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> (
    end: Int, utf8: UInt64, count: Int
  ) {
    if let common = commonReference(input, at: start) { return common }
    if start + 1 < input.count && input[start + 1] != UInt8(ascii: "#") {
      // A name: one look-up tells whether it is a reference and what it stands for.
      guard let semicolon = nameEnd(input, from: start + 1) else {
        return (start + 1, UInt64(UInt8(ascii: "&")), 1)
      }
      let name = input.baseAddress! + start + 1
      if let (utf8, count) = commonName(name, semicolon - start - 1) {
        return (semicolon + 1, utf8, count)
      }
      guard let packed = HTMLEntities.characters(name, semicolon - start - 1) else {
        return (start + 1, UInt64(UInt8(ascii: "&")), 1)
      }
      let (utf8, count) = packedUTF8(packed)
      return (semicolon + 1, utf8, count)
    }
    switch read(input, at: start) {
    case .literal:
      return (start + 1, UInt64(UInt8(ascii: "&")), 1)
    case .replace(let end, let scalar):
      guard let scalar else { return (end, 0, 0) }
      let (utf8, count) = utf8Word(scalar)
      return (end, utf8, count)
    case .keep(let end):
      if input[start + 1] == UInt8(ascii: "#") {
        // A kept number names its character (or a windows-1252 one): read it again.
        guard let scalar = character(keptNumber(input, from: start, to: end)) else {
          return (end, 0, 0)
        }
        let (utf8, count) = utf8Word(scalar)
        return (end, utf8, count)
      }
      guard let packed = HTMLEntities.characters(input.baseAddress! + start + 1, end - start - 2)
      else { return (end, 0, 0) }
      let (utf8, count) = packedUTF8(packed)
      return (end, utf8, count)
    }
  }

  /// A named reference's one or two characters (`HTMLEntities`' packing, the first in the low
  /// 32 bits) as UTF-8 in the low bytes of a word (little-endian), and how many.
  @inline(__always)
  private static func packedUTF8(_ packed: UInt64) -> (UInt64, Int) {
    var (utf8, count) = (UInt64(0), 0)
    if let first = Unicode.Scalar(UInt32(truncatingIfNeeded: packed)) {
      (utf8, count) = utf8Word(first)
    }
    let secondValue = UInt32(truncatingIfNeeded: packed >> 32)
    if secondValue != 0, let second = Unicode.Scalar(secondValue) {
      let (more, moreCount) = utf8Word(second)
      utf8 |= more << UInt64(8 * count)
      count += moreCount
    }
    return (utf8, count)
  }

  /// The value of the numeric reference `read` kept, from its `&` at `start` to `end`.
  private static func keptNumber(_ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
    -> UInt32
  {
    var index = start + 2
    let isHex = input[index] | 0x20 == UInt8(ascii: "x")
    if isHex { index += 1 }
    var value: UInt32 = 0
    while index < end, let digit = digitValue(input[index], hex: isHex) {
      value = value > 0x10_FFFF ? value : value &* (isHex ? 16 : 10) &+ UInt32(digit)
      index += 1
    }
    return value
  }

  /// A character's UTF-8 in the low bytes of a word (little-endian), and how many.
  @inline(__always)
  private static func utf8Word(_ scalar: Unicode.Scalar) -> (UInt64, Int) {
    let value = UInt64(scalar.value)
    switch value {
    case 0..<0x80:
      return (value, 1)
    case 0x80..<0x800:
      return (0xC0 | value >> 6 | (0x80 | value & 0x3F) << 8, 2)
    case 0x800..<0x10000:
      return (0xE0 | value >> 12 | (0x80 | value >> 6 & 0x3F) << 8 | (0x80 | value & 0x3F) << 16, 3)
    default:
      return (
        0xF0 | value >> 18 | (0x80 | value >> 12 & 0x3F) << 8 | (0x80 | value >> 6 & 0x3F) << 16
          | (0x80 | value & 0x3F) << 24, 4
      )
    }
  }

  /// The text of a reference `read` called `keep` or `replace`, appended as UTF-8.
  static func appendDecoded(
    _ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into output: inout [UInt8]
  ) {
    if input[start + 1] == UInt8(ascii: "#") {
      if case .replace(_, let scalar) = read(input, at: start) {
        if let scalar { appendUTF8(scalar, to: &output) }
        return
      }
      if let scalar = character(keptNumber(input, from: start, to: end)) {
        appendUTF8(scalar, to: &output)
      }
      return
    }
    if let packed = HTMLEntities.characters(input.baseAddress! + start + 1, end - start - 2) {
      HTMLEntities.unpack(packed) { appendUTF8($0, to: &output) }
    }
  }

  /// The character a number names, as HTML reads it: the C1 range as windows-1252 (how
  /// `&#150;` became an en dash in a million blog posts), zero, surrogates and values past
  /// U+10FFFF as U+FFFD.
  static func character(_ value: UInt32) -> Unicode.Scalar? {
    if value >= 0x80 && value <= 0x9F, let mapped = windows1252[Int(value - 0x80)] {
      return mapped
    }
    if value == 0 || value > 0x10_FFFF || (0xD800...0xDFFF).contains(value) {
      return "\u{FFFD}"
    }
    return Unicode.Scalar(value)
  }

  /// A C0 control other than tab, LF and CR: no text keeps one, whatever wrote it.
  static func isRemovedControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r"
  }

  private static func digitValue(_ byte: UInt8, hex: Bool) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
    let value = scalar.value
    switch value {
    case 0..<0x80:
      output.append(UInt8(value))
    case 0x80..<0x800:
      output.append(UInt8(0xC0 | value >> 6))
      output.append(UInt8(0x80 | value & 0x3F))
    case 0x800..<0x10000:
      output.append(UInt8(0xE0 | value >> 12))
      output.append(UInt8(0x80 | value >> 6 & 0x3F))
      output.append(UInt8(0x80 | value & 0x3F))
    default:
      output.append(UInt8(0xF0 | value >> 18))
      output.append(UInt8(0x80 | value >> 12 & 0x3F))
      output.append(UInt8(0x80 | value >> 6 & 0x3F))
      output.append(UInt8(0x80 | value & 0x3F))
    }
  }

  /// Windows-1252's characters for 0x80–0x9F (nil where it has none).
  private static let windows1252: [Unicode.Scalar?] = [
    "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
    "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
    nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
    "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
  ]
}

extension UInt8 {
  @inline(__always)
  var isASCIIAlphanumeric: Bool {
    isASCIILetter || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
  }
}
