import FeedPullSupport

/// Start tags with attributes that the sanitizer keeps byte for byte, recognised in one pass
/// over the tag's bytes: `<img src="https://…" alt="…" width="640" height="480"/>`, `<a
/// href="https://…">`. Tokenizing such a tag, looking its names up and deciding each attribute
/// cost about 2,500 instructions a tag, most of the sanitizer's time on feed HTML; this pass
/// costs a tenth of that.
///
/// Only a shortcut for the common case: a known HTML element (not `svg`, `math`, raw text or
/// dropped with its content) of up to seven lower-case letters followed by a space, attributes
/// of up to seven bytes that HTML keeps (not `style`) written exactly as the sanitizer writes
/// them (lower case, `="…"`, one or more spaces apart), values without `&`, `<` or `>`, a link
/// only when it starts `http://` or `https://` and holds no space or control, no name twice,
/// and `>` or, on a void element, `/>` at the end. Anything else (a relative link, an entity,
/// an unknown or upper-case name, an unquoted value, a tag at the text's very end) is `nil`, and
/// the sanitizer reads the tag the full way: the answers are the same, only slower.
///
/// Names are remembered by their bytes in a few slots (the same few come back at every tag),
/// so most tags need no table look-up. Plain memory, one per sanitizer; not thread-safe.
final class HTMLKeptStartTags {
  /// A tag kept as it is: where it ends (just past its `>`), the element's row and whether it
  /// opens an element (not void, not `/>`).
  struct Tag {
    var end: Int
    var row: Int
    var opens: Bool
  }

  /// What a name remembered in a slot is.
  private struct Slot {
    /// The name's bytes (little-endian, the rest zero) and length; length 0 for an empty slot.
    var key: UInt64
    var count: Int
    /// `Kind`'s raw value.
    var kind: Int
    var row: Int
  }

  /// What a name is to this pass.
  private enum Kind: Int {
    /// Not for the shortcut: the full way decides.
    case other = 0
    /// An attribute whose value stays when it needs no escaping.
    case plain
    /// An attribute holding a URI: stays when it is a plain `http(s)://` link.
    case link
    /// An element kept as it is, void (no end tag) or one that opens.
    case voidElement
    case openingElement
  }

  private static var slotsPerTable: Int { 16 }
  /// Attribute names in the first sixteen slots, element names in the next sixteen.
  private let slots: UnsafeMutablePointer<Slot>
  private let elements = HTMLVocabulary.elements
  private let attributes = HTMLVocabulary.attributes
  private let svgRow = HTMLVocabulary.svgRow
  private let mathRow = HTMLVocabulary.mathRow

  init() {
    slots = .allocate(capacity: 2 * Self.slotsPerTable)
    slots.initialize(
      repeating: Slot(key: 0, count: 0, kind: Kind.other.rawValue, row: -1),
      count: 2 * Self.slotsPerTable)
  }

  deinit { slots.deallocate() }

  /// The start tag at `start` (a `<`) of `input`, when it is one the sanitizer keeps exactly
  /// as written outside SVG, MathML and `applet`; nil for any other (and for anything else).
  @inline(__always)
  func keptTag(at start: Int, in input: UnsafeBufferPointer<UInt8>) -> Tag? {
    let count = input.count
    // Eight bytes of name and its space are read without a test.
    guard start &+ 9 <= count else { return nil }
    let base = input.baseAddress!
    guard base[start] == UInt8(ascii: "<") else { return nil }
    let nameWord = UnsafeRawPointer(base + (start &+ 1)).loadUnaligned(as: UInt64.self)
    let spaces = ByteWord.matches(nameWord, UInt8(ascii: " "))
    guard spaces != 0 else { return nil }
    let nameCount = ByteWord.firstMatch(spaces)
    guard nameCount > 0 else { return nil }
    let element = slot(nameWord, nameCount, base + (start &+ 1), isElement: true)
    guard element.kind >= Kind.voidElement.rawValue else { return nil }
    let isVoid = element.kind == Kind.voidElement.rawValue
    var index = start &+ 2 &+ nameCount
    var seen: UInt32 = 0
    while true {
      // White space between attributes (at least one, the name's space for the first).
      while index < count && base[index].isHTMLSpace { index &+= 1 }
      guard index < count else { return nil }
      let byte = base[index]
      if byte == UInt8(ascii: ">") {
        return Tag(end: index &+ 1, row: element.row, opens: !isVoid)
      }
      if byte == UInt8(ascii: "/") {
        // `/>` stays on a void element only (`<p/>` is written anew).
        guard isVoid, index &+ 1 < count, base[index &+ 1] == UInt8(ascii: ">") else {
          return nil
        }
        return Tag(end: index &+ 2, row: element.row, opens: false)
      }
      // `name="`: the name is every byte before the first `=`, which a slot must know.
      let word =
        index &+ 8 <= count
        ? UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        : ByteWord.load(base + index, count: count &- index)
      let equals = ByteWord.matches(word, UInt8(ascii: "="))
      guard equals != 0 else { return nil }
      let attributeCount = ByteWord.firstMatch(equals)
      guard attributeCount > 0 else { return nil }
      let valueStart = index &+ attributeCount &+ 2
      guard valueStart <= count, base[valueStart &- 1] == UInt8(ascii: "\"") else { return nil }
      let attribute = slot(word, attributeCount, base + index, isElement: false)
      guard attribute.kind != Kind.other.rawValue else { return nil }
      // The first of a name counts: a name met twice (or two names sharing a slot) goes the
      // full way.
      let bit = UInt32(1) &<< UInt32(attribute.index)
      guard seen & bit == 0 else { return nil }
      seen |= bit
      let isLink = attribute.kind == Kind.link.rawValue
      guard let close = Self.closingQuote(base, from: valueStart, count: count, isLink: isLink)
      else { return nil }
      if isLink {
        guard close &- valueStart >= 8, Self.isHTTP(base + valueStart) else { return nil }
      }
      index = close &+ 1
      // After the value: white space, `>` or `/`, else the full way.
      guard index < count else { return nil }
      let after = base[index]
      guard after.isHTMLSpace || after == UInt8(ascii: ">") || after == UInt8(ascii: "/") else {
        return nil
      }
    }
  }

  /// The slot of the name `word` (its first `nameCount` bytes, at `bytes`), an element's or
  /// an attribute's, filled anew when it holds another name: its kind, row, and index among
  /// the slots of its kind of name.
  @inline(__always)
  private func slot(
    _ word: UInt64, _ nameCount: Int, _ bytes: UnsafePointer<UInt8>, isElement: Bool
  ) -> (kind: Int, row: Int, index: Int) {
    let key = word & (UInt64(1) &<< UInt64(nameCount &* 8) &- 1)
    let index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> 60)
    let slot = slots + (isElement ? Self.slotsPerTable &+ index : index)
    if slot.pointee.count != nameCount || slot.pointee.key != key {
      let (kind, row) =
        isElement ? classifyElement(bytes, nameCount) : classifyAttribute(bytes, nameCount)
      slot.pointee = Slot(key: key, count: nameCount, kind: kind.rawValue, row: row)
    }
    return (slot.pointee.kind, slot.pointee.row, index)
  }

  /// What an attribute name is to this pass (the sanitizer's `keepAttributes` in HTML).
  @inline(never)
  private func classifyAttribute(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> (Kind, Int) {
    guard let row = attributes.row(bytes, count), attributes.isSpelled(row, bytes, count) else {
      return (.other, -1)
    }
    let info = attributes.info(row)
    guard info.contains(.html), info.isDisjoint(with: [.style, .xlink, .xmlns]) else {
      return (.other, row)
    }
    // A link wherever some element resolves it, or its scheme is checked.
    let isLink = info.contains(.uri) || info.uriAttribute != nil
    return (isLink ? .link : .plain, row)
  }

  /// What an element name is to this pass (the sanitizer's `startTag` outside SVG and MathML).
  @inline(never)
  private func classifyElement(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> (Kind, Int) {
    guard let row = elements.row(bytes, count), elements.isSpelled(row, bytes, count) else {
      return (.other, -1)
    }
    let info = elements.info(row)
    guard info.contains(.html), !info.contains(.rawText), !info.contains(.droppedWithContent),
      row != svgRow, row != mathRow
    else { return (.other, row) }
    return (info.contains(.void) ? .voidElement : .openingElement, row)
  }

  /// The `"` that closes a value starting at `from`, when no byte before it needs the full
  /// way: `&`, `<`, `>`, and in a link a space or control. Sixteen bytes a look, the last
  /// fifteen of the text one at a time.
  @inline(__always)
  private static func closingQuote(
    _ base: UnsafePointer<UInt8>, from: Int, count: Int, isLink: Bool
  ) -> Int? {
    var block = from
    while block &+ 16 <= count {
      let bytes = UnsafeRawPointer(base + block).loadUnaligned(as: SIMD16<UInt8>.self)
      // `<` and `>` are the two bytes that read `>` with bit 1 set.
      var stop =
        (bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: "\"")))
        .| (bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: "&")))
        .| (bytes | SIMD16<UInt8>(repeating: 2) .== SIMD16<UInt8>(repeating: UInt8(ascii: ">")))
      if isLink { stop = stop .| (bytes .< SIMD16<UInt8>(repeating: 0x21)) }
      if HTMLTokenizer.anyLane(stop) {
        let at = block &+ HTMLTokenizer.firstLane(stop)
        return base[at] == UInt8(ascii: "\"") ? at : nil
      }
      block &+= 16
    }
    // The last bytes of the text, one at a time.
    while block < count {
      let byte = base[block]
      if byte == UInt8(ascii: "\"") { return block }
      if byte == UInt8(ascii: "&") || byte | 2 == UInt8(ascii: ">") || (isLink && byte < 0x21) {
        return nil
      }
      block &+= 1
    }
    return nil
  }

  /// `http://` or `https://` at `start` (in lower case; eight bytes readable).
  @inline(__always)
  private static func isHTTP(_ start: UnsafePointer<UInt8>) -> Bool {
    let word = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
    // Little-endian: `https://`, and `http://` with any eighth byte.
    return word == 0x2F2F_3A73_7074_7468 || word & 0x00FF_FFFF_FFFF_FFFF == 0x2F_2F3A_7074_7468
  }
}
