import FeedPullSupport

/// Start tags with attributes that the sanitizer keeps byte for byte, recognised in one pass
/// over the tag's bytes: `<img src="https://…" alt="…" width="640" height="480"/>`, `<a
/// href="https://…">`. Tokenizing such a tag, looking its names up and deciding each attribute
/// cost about 2,500 instructions a tag, most of the sanitizer's time on feed HTML; this pass
/// costs a tenth of that.
///
/// Only a shortcut for the common case: a known HTML element (not `svg`, `math`, raw text or
/// dropped with its content) of up to fifteen lower-case letters followed by a space, attributes
/// of up to seven bytes that HTML keeps (not `style`) written exactly as the sanitizer writes
/// them (lower case, `="…"`, one or more spaces apart), values without `&`, `<` or `>`, a link
/// only when it starts `http://` or `https://` and holds no space or control, no name twice,
/// and `>` or, on a void element, `/>` at the end. Anything else (a relative link, an entity,
/// an unknown or upper-case name, an unquoted value, a tag at the text's very end) is `nil`, and
/// the sanitizer reads the tag the full way: the answers are the same, only slower.
///
/// A link that is not `http(s)://` (a relative one, most often) does not send the tag the full
/// way when its value is plain (nothing to decode, trim or escape): the tag is taken with the
/// link marked in `Tag.links`, and the sanitizer decides that value as the full way would
/// (resolved against the base when the element resolves the attribute, emptied when its scheme
/// is not acceptable), writing the tag anew from the positions kept here when a value changes.
///
/// Names are remembered by their bytes in a few slots (the same few come back at every tag),
/// so most tags need no table look-up. Plain memory, one per sanitizer; not thread-safe.
final class HTMLKeptStartTags {
  /// A tag kept as it is, but for the links in `links`: where it ends (just past its `>`),
  /// the element's row and whether it opens an element (not void, not `/>`).
  struct Tag {
    var end: Int
    var row: Int
    var opens: Bool
    /// A void element (written anew with ` />`).
    var isVoid: Bool
    /// The element name's length (its bytes follow the `<`).
    var nameCount: Int
    /// How many attributes the tag has; their positions are `nameStarts`, `valueStarts` and
    /// `valueEnds` (the closing quote) until the next call.
    var attributeCount: Int
    /// The attributes (bit `i` for the `i`th) whose value is a plain link that is not
    /// `http(s)://`, which the sanitizer must decide; 0: the tag stays exactly as written.
    var links: UInt32
    /// Among `links`, those the element resolves against the base (the rest only have their
    /// scheme checked).
    var resolving: UInt32
  }

  /// Where each attribute of the last tag taken starts, where its value starts (after `="`)
  /// and where it ends (at the closing `"`): sixteen each, as a tag has at most sixteen.
  let nameStarts: UnsafeMutablePointer<Int>
  let valueStarts: UnsafeMutablePointer<Int>
  let valueEnds: UnsafeMutablePointer<Int>

  /// What a name remembered in a slot is.
  private struct Slot {
    /// The name's bytes (little-endian, the rest zero) and length; length 0 for an empty slot.
    var key: UInt64
    var count: Int
    /// `Kind`'s raw value.
    var kind: Int
    var row: Int
    /// An element's `resolvedURIAttributes`; an attribute's `URIAttribute` bit (0: none).
    var uriBits: UInt32
    /// An attribute whose scheme is checked (`AttributeInfo.uri`).
    var isURI: Bool
  }

  /// What a name is to this pass.
  private enum Kind: Int {
    /// Not for the shortcut: the full way decides.
    case other = 0
    /// An attribute whose value stays when it needs no escaping.
    case plain
    /// An attribute holding a URI: stays when it is a plain `http(s)://` link, else the
    /// sanitizer decides its (plain) value.
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
      repeating: Slot(
        key: 0, count: 0, kind: Kind.other.rawValue, row: -1, uriBits: 0, isURI: false),
      count: 2 * Self.slotsPerTable)
    nameStarts = .allocate(capacity: Self.slotsPerTable)
    nameStarts.initialize(repeating: 0, count: Self.slotsPerTable)
    valueStarts = .allocate(capacity: Self.slotsPerTable)
    valueStarts.initialize(repeating: 0, count: Self.slotsPerTable)
    valueEnds = .allocate(capacity: Self.slotsPerTable)
    valueEnds.initialize(repeating: 0, count: Self.slotsPerTable)
  }

  deinit {
    slots.deallocate()
    nameStarts.deallocate()
    valueStarts.deallocate()
    valueEnds.deallocate()
  }

  /// The start tag at `start` (a `<`) of `input`, when it is one the sanitizer keeps exactly
  /// as written outside SVG, MathML and `applet` but for the plain links in `links`; nil for
  /// any other (and for anything else).
  @inline(__always)
  func keptTag(at start: Int, in input: UnsafeBufferPointer<UInt8>) -> Tag? {
    let count = input.count
    // Eight bytes of name and its space are read without a test.
    guard start &+ 9 <= count else { return nil }
    let base = input.baseAddress!
    guard base[start] == UInt8(ascii: "<") else { return nil }
    let nameWord = UnsafeRawPointer(base + (start &+ 1)).loadUnaligned(as: UInt64.self)
    let spaces = ByteWord.matches(nameWord, UInt8(ascii: " "))
    let nameCount: Int
    let element: (kind: Int, row: Int, uriBits: UInt32)
    if spaces != 0 {
      nameCount = ByteWord.firstMatch(spaces)
      guard nameCount > 0 else { return nil }
      let known = slot(nameWord, nameCount, base + (start &+ 1), isElement: true)
      element = (known.kind, known.row, known.uriBits)
    } else {
      // A name of eight to fifteen bytes (`blockquote`, `figcaption`): looked up in the table
      // each time, not remembered in a slot (keyed on eight bytes).
      guard start &+ 17 <= count else { return nil }
      let more = ByteWord.matches(
        UnsafeRawPointer(base + (start &+ 9)).loadUnaligned(as: UInt64.self), UInt8(ascii: " "))
      guard more != 0 else { return nil }
      nameCount = 8 &+ ByteWord.firstMatch(more)
      let (kind, row, uriBits, _) = classifyElement(base + (start &+ 1), nameCount)
      element = (kind.rawValue, row, uriBits)
    }
    guard element.kind >= Kind.voidElement.rawValue else { return nil }
    let isVoid = element.kind == Kind.voidElement.rawValue
    var index = start &+ 2 &+ nameCount
    var seen: UInt32 = 0
    var attributeCount = 0
    var links: UInt32 = 0
    var resolving: UInt32 = 0
    @inline(__always) func tag(end: Int, opens: Bool) -> Tag {
      Tag(
        end: end, row: element.row, opens: opens, isVoid: isVoid, nameCount: nameCount,
        attributeCount: attributeCount, links: links, resolving: resolving)
    }
    while true {
      // White space between attributes (at least one, the name's space for the first).
      while index < count && base[index].isHTMLSpace { index &+= 1 }
      guard index < count else { return nil }
      let byte = base[index]
      if byte == UInt8(ascii: ">") {
        return tag(end: index &+ 1, opens: !isVoid)
      }
      if byte == UInt8(ascii: "/") {
        // `/>` stays on a void element only (`<p/>` is written anew).
        guard isVoid, index &+ 1 < count, base[index &+ 1] == UInt8(ascii: ">") else {
          return nil
        }
        return tag(end: index &+ 2, opens: false)
      }
      // `name="`: the name is every byte before the first `=`, which a slot must know.
      let word =
        index &+ 8 <= count
        ? UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        : ByteWord.load(base + index, count: count &- index)
      let equals = ByteWord.matches(word, UInt8(ascii: "="))
      guard equals != 0 else { return nil }
      let attributeNameCount = ByteWord.firstMatch(equals)
      guard attributeNameCount > 0 else { return nil }
      let valueStart = index &+ attributeNameCount &+ 2
      guard valueStart <= count, base[valueStart &- 1] == UInt8(ascii: "\"") else { return nil }
      let attribute = slot(word, attributeNameCount, base + index, isElement: false)
      guard attribute.kind != Kind.other.rawValue else { return nil }
      // The first of a name counts: a name met twice (or two names sharing a slot) goes the
      // full way.
      let bit = UInt32(1) &<< UInt32(attribute.index)
      guard seen & bit == 0 else { return nil }
      seen |= bit
      let isLink = attribute.kind == Kind.link.rawValue
      guard let close = Self.closingQuote(base, from: valueStart, count: count, isLink: isLink)
      else { return nil }
      if isLink && !(close &- valueStart >= 8 && Self.isHTTP(base + valueStart)) {
        // A plain value (`closingQuote` stopped at nothing) that the sanitizer decides: when
        // the element resolves the attribute or its scheme is checked; else it stays.
        guard close > valueStart else { return nil }
        let resolves = attribute.uriBits & element.uriBits != 0
        if resolves || attribute.isURI {
          let bit = UInt32(1) &<< UInt32(attributeCount)
          links |= bit
          if resolves { resolving |= bit }
        }
      }
      nameStarts[attributeCount] = index
      valueStarts[attributeCount] = valueStart
      valueEnds[attributeCount] = close
      attributeCount &+= 1
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
  ) -> (kind: Int, row: Int, index: Int, uriBits: UInt32, isURI: Bool) {
    let key = word & (UInt64(1) &<< UInt64(nameCount &* 8) &- 1)
    let index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> 60)
    let slot = slots + (isElement ? Self.slotsPerTable &+ index : index)
    if slot.pointee.count != nameCount || slot.pointee.key != key {
      let (kind, row, uriBits, isURI) =
        isElement ? classifyElement(bytes, nameCount) : classifyAttribute(bytes, nameCount)
      slot.pointee = Slot(
        key: key, count: nameCount, kind: kind.rawValue, row: row, uriBits: uriBits,
        isURI: isURI)
    }
    return (slot.pointee.kind, slot.pointee.row, index, slot.pointee.uriBits, slot.pointee.isURI)
  }

  /// What an attribute name is to this pass (the sanitizer's `keepAttributes` in HTML), with
  /// its `URIAttribute` bit and whether its scheme is checked.
  @inline(never)
  private func classifyAttribute(
    _ bytes: UnsafePointer<UInt8>, _ count: Int
  ) -> (Kind, Int, UInt32, Bool) {
    guard let row = attributes.row(bytes, count), attributes.isSpelled(row, bytes, count) else {
      return (.other, -1, 0, false)
    }
    let info = attributes.info(row)
    guard info.contains(.html), info.isDisjoint(with: [.style, .xlink, .xmlns]) else {
      return (.other, row, 0, false)
    }
    // A link wherever some element resolves it, or its scheme is checked.
    let isURI = info.contains(.uri)
    let uriBits = info.uriAttribute.map { UInt32(1) &<< $0.rawValue } ?? 0
    return (isURI || uriBits != 0 ? .link : .plain, row, uriBits, isURI)
  }

  /// What an element name is to this pass (the sanitizer's `startTag` outside SVG and MathML),
  /// with the `URIAttribute` bits it resolves.
  @inline(never)
  private func classifyElement(
    _ bytes: UnsafePointer<UInt8>, _ count: Int
  ) -> (Kind, Int, UInt32, Bool) {
    guard let row = elements.row(bytes, count), elements.isSpelled(row, bytes, count) else {
      return (.other, -1, 0, false)
    }
    let info = elements.info(row)
    guard info.contains(.html), !info.contains(.rawText), !info.contains(.droppedWithContent),
      row != svgRow, row != mathRow
    else { return (.other, row, 0, false) }
    let kind: Kind = info.contains(.void) ? .voidElement : .openingElement
    return (kind, row, info.resolvedURIAttributes, false)
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
