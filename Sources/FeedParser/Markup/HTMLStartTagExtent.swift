import FeedPullSupport

/// Where a start tag ends, for a reader that needs its name and its end but not its
/// attributes (the text renderer: `<img src="…" alt="…">` and `<a href="…">` are only skipped).
///
/// The tokenizer's `startTag` reads every attribute's name and value byte by byte into the
/// attribute storage, about 640 instructions for the generated feeds' tags with attributes;
/// this reads the common spelling one attribute a look: one space, a name of letters (bytes
/// above `>`) and `-`, then `=` and a value in double quotes (its closing quote sought as the
/// tokenizer seeks it) or nothing (`async`). Anything else (other white space, single quotes or
/// none, a `<`, a name starting with `=` or holding a digit) answers nil, and the caller
/// tokenizes the tag: where this answers, the tokenizer would read the same name, end and
/// self-closing slash.
extension HTMLTokenizer {
  /// A start tag at the current position: its name, where it ends (just past its `>`) and
  /// whether it closes itself (`/>` after its last attribute); nil when the tag is not one
  /// this reads (the caller then asks `next()`). The position does not move.
  @inline(__always)
  mutating func startTagExtent() -> (name: Range<Int>, end: Int, selfClosing: Bool)? {
    let start = position
    let count = input.count
    guard start &+ 2 < count, let base = input.baseAddress, base[start] == UInt8(ascii: "<"),
      base[start &+ 1].isASCIILetter
    else { return nil }
    var index = start &+ 2
    while index < count && !Self.endsName(base[index]) { index &+= 1 }
    let name = start &+ 1..<index
    guard index < count else { return nil }
    if base[index] == UInt8(ascii: ">") { return (name, index &+ 1, false) }
    return attributesEnd(base, name: name, from: index)
  }

  /// The end of a start tag named `name` whose attributes begin at `from`, read as
  /// `startTagExtent` says.
  private mutating func attributesEnd(
    _ base: UnsafePointer<UInt8>, name: Range<Int>, from: Int
  ) -> (name: Range<Int>, end: Int, selfClosing: Bool)? {
    let count = input.count
    var index = from
    while index < count {
      let byte = base[index]
      if byte == UInt8(ascii: ">") { return (name, index &+ 1, false) }
      if byte == UInt8(ascii: "/") {
        // The tokenizer's white-space run takes `/` and notes it; `>` then closes the tag.
        guard index &+ 1 < count, base[index &+ 1] == UInt8(ascii: ">") else { return nil }
        return (name, index &+ 2, true)
      }
      guard byte == UInt8(ascii: " "), index &+ 1 < count else { return nil }
      let next = base[index &+ 1]
      if next == UInt8(ascii: ">") { return (name, index &+ 2, false) }
      if next == UInt8(ascii: "/") {
        guard index &+ 2 < count, base[index &+ 2] == UInt8(ascii: ">") else { return nil }
        return (name, index &+ 3, true)
      }
      // ` name="` or ` name` alone: between the space and what ends the name only bytes above
      // `>` or `-` (letters, digits aside: bytes the tokenizer takes into a name, where white
      // space, `/`, `=`, `<`, `>` and quotes would make it another tag). The text's last
      // sixteen bytes are read zero-filled (a zero ends a name and is no quote).
      let remaining = count &- index
      let bytes =
        remaining >= 16
        ? UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
        : unsafeBitCast(
          SIMD2<UInt64>(
            ByteWord.load(base + index, count: min(remaining, 8)),
            remaining > 8 ? ByteWord.load(base + (index &+ 8), count: remaining &- 8) : 0),
          to: SIMD16<UInt8>.self)
      let inName =
        (bytes .> SIMD16<UInt8>(repeating: UInt8(ascii: ">")))
        .| (bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: "-")))
      var notInName = ~unsafeBitCast(inName, to: SIMD2<UInt64>.self)
      notInName[0] &= ~0xFF  // The space before the name.
      let nameEnd = Self.firstLane(notInName)
      guard nameEnd >= 2, nameEnd < min(remaining, 16) else { return nil }
      guard bytes[nameEnd] == UInt8(ascii: "=") else {
        // A name alone (`async`): the tokenizer ends it there, and goes on after white space
        // (the next look's space), at `>` or at `/`; anything else is not read here.
        index &+= nameEnd
        continue
      }
      // `="`: the value's closing quote in the same sixteen bytes (`width="640"`), else
      // sought after them.
      let quotes = unsafeBitCast(
        bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: "\"")), to: SIMD2<UInt64>.self)
      guard nameEnd &+ 1 < 16, Self.firstLane(quotes) == nameEnd &+ 1 else { return nil }
      let later = Self.lanes(after: nameEnd &+ 1, of: quotes)
      let close: Int
      if later[0] | later[1] != 0 {
        close = index &+ Self.firstLane(later)
      } else if remaining >= 32, let found = Self.firstQuote(base + (index &+ 16)) {
        // In the next sixteen (`alt="…"`): one more look before a call.
        close = index &+ 16 &+ found
      } else {
        guard remaining > 16,
          let found = closingQuote(UInt8(ascii: "\""), from: index &+ 16)
        else { return nil }
        close = found
      }
      index = close &+ 1
    }
    return nil
  }

  /// The lane of the first `"` among the sixteen bytes at `bytes`, if any.
  @inline(__always)
  private static func firstQuote(_ bytes: UnsafePointer<UInt8>) -> Int? {
    let isQuote =
      UnsafeRawPointer(bytes).loadUnaligned(as: SIMD16<UInt8>.self)
      .== SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
    return anyLane(isQuote) ? firstLane(isQuote) : nil
  }

  /// The first lane a mask's two words set, or 16.
  @inline(__always)
  private static func firstLane(_ words: SIMD2<UInt64>) -> Int {
    words[0] != 0
      ? words[0].trailingZeroBitCount &>> 3
      : (words[1] != 0 ? 8 &+ words[1].trailingZeroBitCount &>> 3 : 16)
  }

  /// A mask's two words with the lanes up to `lane` (0 to 15) cleared.
  @inline(__always)
  private static func lanes(after lane: Int, of words: SIMD2<UInt64>) -> SIMD2<UInt64> {
    if lane < 8 {
      return SIMD2(words[0] & ~(UInt64.max &>> UInt64(56 &- lane &* 8)), words[1])
    }
    return SIMD2(0, words[1] & ~(UInt64.max &>> UInt64(120 &- lane &* 8)))
  }
}
