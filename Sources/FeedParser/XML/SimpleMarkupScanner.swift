import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Reads markup that libxml2 would turn into events without judging anything but the bytes in
/// front of it: an element with no child elements (`<itunes:episode>12</itunes:episode>`,
/// `<podcast:transcript url="…" type="text/vtt"/>`), an element whose children are all such
/// elements (`<author><name>…</name><email>…</email></author>`), and the plain text between
/// tags. A podcast
/// item is some forty such elements; libxml2 spends about two thousand instructions on each
/// (names interned, attributes parsed and normalised, the push parser looking ahead for `>`),
/// several times what reading them here costs. `StreamingFeedParser` hands what this accepts
/// to the builder through `LibXMLPushParser.handOver`, and everything else to libxml2, so the
/// well-formedness judgement stays libxml2's.
///
/// It accepts only what has one reading: ASCII names (one colon at most), attribute values in
/// quotes without `<`, `&` or control characters (libxml2 would decode or normalise them), no
/// `xmlns` or `xml:` attribute (they change the scope), no local name given twice, and text
/// that `PlainCharacterData` calls plain. Anything else, and anything the end of the piece cuts
/// off, is for libxml2. A function of the bytes alone, so tests can hold it to libxml2.
final class SimpleMarkupScanner {
  /// A name's bytes: `start..<end`, with the colon of a prefixed name at `colon`.
  struct Name {
    var start = 0
    var colon = -1
    var end = 0
    var hasPrefix: Bool { colon >= 0 }
    var localStart: Int { colon >= 0 ? colon + 1 : start }
  }

  /// An attribute of the element read last: its name and the bytes inside its quotes.
  struct Attribute {
    var name: Name
    var valueStart: Int
    var valueEnd: Int
  }

  /// An element read: its name, its attributes (`attributes[attributesStart..<attributesEnd]`),
  /// and for a child its text and the text before it in its parent (the outer element's text
  /// is the `gapStart..<gapEnd` after its last child, all of it when it has none).
  struct Part {
    var name = Name()
    var attributesStart = 0
    var attributesEnd = 0
    var textStart = 0
    var textEnd = 0
    var gapStart = 0
    var gapEnd = 0
  }

  /// What starts at the position read.
  enum Step: Equatable {
    /// A whole element, ending before `end`: `parts[0]`, and its children, if any, in
    /// `parts[1..<partCount]`, with the text after the last child at `gapStart..<gapEnd`.
    case element(end: Int)
    /// Plain character data up to `end`, where a tag starts.
    case text(end: Int)
    /// Markup for libxml2 to read, complete at `end`: a start or end tag, with any text before
    /// it that is not plain.
    case construct(end: Int)
    /// libxml2 must read the rest of the piece: a comment, a CDATA section, a processing
    /// instruction, or a construct the piece cuts off.
    case rest
  }

  // Its stored properties are touched only by the parse's one thread, never with overlapping
  // accesses: unchecked, as the dynamic checks cost more than reading a small element.

  /// The element and its children, in a buffer kept from element to element.
  let parts: UnsafeMutablePointer<Part>
  @exclusivity(unchecked) private(set) var partCount = 0
  /// The text between the last child and the element's end tag.
  @exclusivity(unchecked) private(set) var gapStart = 0
  @exclusivity(unchecked) private(set) var gapEnd = 0
  /// Children beyond this many leave the element to libxml2, and so keep `parts` small.
  static let maximumChildren = 32
  /// Attributes beyond this many in one tag leave the element to libxml2: the check for a
  /// repeated name compares each with those before it.
  static let maximumAttributes = 64
  /// Names of elements that turned out not to be simple parents (an RSS `item`, with its
  /// CDATA and long text): their children are not read twice, once as children and again one
  /// by one. A guess kept per name (a direct-mapped table of name keys); a wrong one costs time.
  private let notParents: UnsafeMutablePointer<UInt64>
  /// `NameByteClasses.table`, read once: a lazily made global costs a `swift_once` call at
  /// every read, and an element reads it for every name (40,000 calls in a 5 MB podcast feed).
  private let nameClasses = NameByteClasses.table
  /// The attributes of every part, in a buffer kept from element to element.
  @exclusivity(unchecked) private(set) var attributes: UnsafeMutablePointer<Attribute>
  @exclusivity(unchecked) private(set) var attributeCount = 0
  @exclusivity(unchecked) private var attributeCapacity = 16

  init() {
    attributes = .allocate(capacity: attributeCapacity)
    parts = .allocate(capacity: Self.maximumChildren + 1)
    notParents = .allocate(capacity: 64)
    notParents.initialize(repeating: 0, count: 64)
  }

  deinit {
    attributes.deallocate()
    parts.deallocate()
    notParents.deallocate()
  }

  /// Reads what starts at `start` (`start < bytes.count`).
  func step(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Step {
    let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
    let count = bytes.count
    guard base[start] == UInt8(ascii: "<") else {
      guard let tag = memchr(base + start, Int32(UInt8(ascii: "<")), count &- start) else {
        return .rest
      }
      let tagStart = UnsafeRawPointer(tag) - UnsafeRawPointer(base)
      if Self.isPlainText(base, from: start, to: tagStart) { return .text(end: tagStart) }
      return Self.tagEnd(base, count, from: tagStart).map { .construct(end: $0) } ?? .rest
    }
    guard start &+ 1 < count else { return .rest }
    switch base[start &+ 1] {
    case UInt8(ascii: "/"):
      guard let close = memchr(base + start, Int32(UInt8(ascii: ">")), count &- start) else {
        return .rest
      }
      return .construct(end: UnsafeRawPointer(close) - UnsafeRawPointer(base) + 1)
    case UInt8(ascii: "!"), UInt8(ascii: "?"):
      return .rest
    default:
      return element(base, count, at: start)
    }
  }

  /// The result of reading a start tag into a part.
  private enum StartTag {
    case open(end: Int)
    case closed(end: Int)
    case notSimple
    case cutOff
  }

  /// An element from its `<`: a childless one, one whose children are all childless, or its
  /// start tag (or the rest) for libxml2.
  private func element(_ base: UnsafePointer<UInt8>, _ count: Int, at start: Int) -> Step {
    var notSimple: Step {
      Self.tagEnd(base, count, from: start).map { .construct(end: $0) } ?? .rest
    }
    attributeCount = 0
    partCount = 1
    let startTagEnd: Int
    switch startTag(base, count, at: start, into: 0) {
    case .closed(let end):
      gapStart = end
      gapEnd = end
      return .element(end: end)
    case .open(let end): startTagEnd = end
    case .notSimple: return notSimple
    case .cutOff: return .rest
    }
    // The content: plain text and childless children, then the matching end tag.
    var position = startTagEnd
    var notSimpleParent: Step {
      if partCount > 1 {
        let key = Self.key(base, parts[0].name)
        notParents[key.slot(bits: 6)] = key.hash | 1
      }
      return .construct(end: startTagEnd)
    }
    var isKnownNotParent: Bool {
      let key = Self.key(base, parts[0].name)
      return notParents[key.slot(bits: 6)] == key.hash | 1
    }
    while true {
      guard let tag = memchr(base + position, Int32(UInt8(ascii: "<")), count &- position) else {
        return .rest
      }
      let tagStart = UnsafeRawPointer(tag) - UnsafeRawPointer(base)
      guard tagStart &+ 1 < count else { return .rest }
      guard Self.isPlainText(base, from: position, to: tagStart) else { return notSimpleParent }
      if base[tagStart &+ 1] == UInt8(ascii: "/") {
        switch endTag(base, count, at: tagStart, of: parts[0].name) {
        case .end(let end):
          gapStart = position
          gapEnd = tagStart
          return .element(end: end)
        case .other: return .construct(end: startTagEnd)
        case .cutOff: return .rest
        }
      }
      // A child: childless, or the element is libxml2's.
      guard partCount <= Self.maximumChildren, partCount > 1 || !isKnownNotParent else {
        return .construct(end: startTagEnd)
      }
      let child = partCount
      partCount &+= 1
      parts[child].gapStart = position
      parts[child].gapEnd = tagStart
      switch startTag(base, count, at: tagStart, into: child) {
      case .closed(let end):
        parts[child].textStart = end
        parts[child].textEnd = end
        position = end
      case .open(let childTagEnd):
        guard
          let textEnd = memchr(
            base + childTagEnd, Int32(UInt8(ascii: "<")), count &- childTagEnd)
        else { return .rest }
        let childTextEnd = UnsafeRawPointer(textEnd) - UnsafeRawPointer(base)
        guard Self.isPlainText(base, from: childTagEnd, to: childTextEnd) else {
          return notSimpleParent
        }
        switch endTag(base, count, at: childTextEnd, of: parts[child].name) {
        case .end(let end): position = end
        case .other: return notSimpleParent
        // The piece ends: nothing is known of the parent yet.
        case .cutOff: return .rest
        }
        parts[child].textStart = childTagEnd
        parts[child].textEnd = childTextEnd
      case .notSimple: return notSimpleParent
      case .cutOff: return .rest
      }
    }
  }

  /// A name's key for `notParents` (the hash alone: a collision only costs a missed guess).
  private static func key(_ base: UnsafePointer<UInt8>, _ name: Name) -> NameKey {
    NameKey(base + name.start, count: name.end &- name.start)
  }

  /// Reads the start tag at `start` (its `<`) into `parts[part]`: its name and attributes.
  @inline(__always)
  private func startTag(
    _ base: UnsafePointer<UInt8>, _ count: Int, at start: Int, into part: Int
  ) -> StartTag {
    var position = start &+ 1
    guard let elementName = Self.name(base, count, at: &position, classes: nameClasses) else {
      return Self.isCutOffName(base, count, at: position, classes: nameClasses)
        ? .cutOff : .notSimple
    }
    parts[part].name = elementName
    parts[part].attributesStart = attributeCount
    defer { parts[part].attributesEnd = attributeCount }
    while true {
      let spaced = Self.skipSpace(base, count, at: &position)
      guard position < count else { return .cutOff }
      let byte = base[position]
      if byte == UInt8(ascii: ">") { return .open(end: position &+ 1) }
      if byte == UInt8(ascii: "/") {
        guard position &+ 1 < count else { return .cutOff }
        guard base[position &+ 1] == UInt8(ascii: ">") else { return .notSimple }
        return .closed(end: position &+ 2)
      }
      guard spaced, let attributeName = Self.name(base, count, at: &position, classes: nameClasses)
      else {
        return spaced && Self.isCutOffName(base, count, at: position, classes: nameClasses)
          ? .cutOff : .notSimple
      }
      _ = Self.skipSpace(base, count, at: &position)
      guard position < count else { return .cutOff }
      guard base[position] == UInt8(ascii: "=") else { return .notSimple }
      position &+= 1
      _ = Self.skipSpace(base, count, at: &position)
      guard position < count else { return .cutOff }
      let quote = base[position]
      guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return .notSimple }
      let valueStart = position &+ 1
      let valueEnd: Int
      switch Self.plainValueEnd(base, count, from: valueStart, quote: quote) {
      case .end(let end): valueEnd = end
      case .notPlain: return .notSimple
      case .cutOff: return .cutOff
      }
      guard isNewAttribute(base, attributeName, since: parts[part].attributesStart) else {
        return .notSimple
      }
      append(Attribute(name: attributeName, valueStart: valueStart, valueEnd: valueEnd))
      position = valueEnd &+ 1
    }
  }

  /// Where an attribute value ends.
  private enum ValueEnd {
    /// At its closing quote, with no byte in it that libxml2 would decode or normalise.
    case end(Int)
    /// A byte libxml2 would decode (`&`), normalise (controls: tab, line feed, CR) or reject
    /// (`<`) comes before the closing quote.
    case notPlain
    /// The piece ends before the closing quote.
    case cutOff
  }

  /// The closing `quote` of the value starting at `start`, and whether the value is plain, in
  /// one pass eight bytes at a time (a podcast item has some twenty attributes: looking for the
  /// quote with `memchr` and then over the value again cost twice this). Inlined: a call for
  /// each attribute value cost about ten instructions more.
  @inline(__always)
  private static func plainValueEnd(
    _ base: UnsafePointer<UInt8>, _ count: Int, from start: Int, quote: UInt8
  ) -> ValueEnd {
    var index = start
    while index &+ 8 <= count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      let stops =
        ByteWord.matchesBelow(word, 0x20) | ByteWord.matches(word, UInt8(ascii: "<"))
        | ByteWord.matches(word, UInt8(ascii: "&")) | ByteWord.matches(word, quote)
      if stops != 0 {
        // The lowest flag is exact: the first byte that stops the value.
        return stop(base, count, at: index &+ ByteWord.firstMatch(stops), quote: quote)
      }
      index &+= 8
    }
    while index < count {
      let byte = base[index]
      if byte == quote || byte < 0x20 || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") {
        return stop(base, count, at: index, quote: quote)
      }
      index &+= 1
    }
    return .cutOff
  }

  /// The value's end at `index`, the first byte that stops it: its quote, or a byte that makes
  /// it not plain (then a value the piece cuts off is still cut off, as before the check).
  @inline(__always)
  private static func stop(
    _ base: UnsafePointer<UInt8>, _ count: Int, at index: Int, quote: UInt8
  ) -> ValueEnd {
    if base[index] == quote { return .end(index) }
    return memchr(base + index, Int32(quote), count &- index) == nil ? .cutOff : .notPlain
  }

  /// What the tag at `start` (its `<`) is to an element named `name`.
  private enum EndTag {
    /// Its end tag, ending before this offset.
    case end(Int)
    /// Another tag, or an end tag that libxml2 must judge.
    case other
    /// The piece ends before it could tell.
    case cutOff
  }

  /// Whether the tag at `start` (its `<`) ends the element named `name`. A piece that cuts the
  /// tag off says nothing: taken for `other`, it marked a podcast's `alternateEnclosure` as not a
  /// simple parent when a 64 KB read ended inside one, and libxml2 read every later one.
  @inline(__always)
  private func endTag(_ base: UnsafePointer<UInt8>, _ count: Int, at start: Int, of name: Name)
    -> EndTag
  {
    guard start &+ 1 < count else { return .cutOff }
    guard base[start &+ 1] == UInt8(ascii: "/") else { return .other }
    let nameLength = name.end &- name.start
    var position = start &+ 2
    // What the piece holds of the name must match; then all of it, and what follows.
    let available = min(nameLength, count &- position)
    guard Self.sameBytes(base + position, base + name.start, available) else { return .other }
    guard position &+ nameLength < count else { return .cutOff }
    position &+= nameLength
    _ = Self.skipSpace(base, count, at: &position)
    guard position < count else { return .cutOff }
    return base[position] == UInt8(ascii: ">") ? .end(position &+ 1) : .other
  }

  /// Whether the bytes from `position` to the end of the piece could begin a name that goes
  /// on in the next piece: then `name` found none only because the piece ended.
  private static func isCutOffName(
    _ base: UnsafePointer<UInt8>, _ count: Int, at position: Int, classes: UnsafePointer<UInt8>
  ) -> Bool {
    var index = position
    while index < count {
      let byte = base[index]
      guard classes[Int(byte)] & NameByteClasses.inName != 0 || byte == UInt8(ascii: ":") else {
        return false
      }
      index &+= 1
    }
    return true
  }

  // Inlined into `startTag`, with `isNewAttribute`: as calls, with the shuffling of registers
  // around them, they cost as much as their work for each of a podcast item's thirty
  // attributes.
  @inline(__always)
  private func append(_ attribute: Attribute) {
    if attributeCount == attributeCapacity { growAttributes() }
    (attributes + attributeCount).initialize(to: attribute)
    attributeCount &+= 1
  }

  private func growAttributes() {
    if attributeCount == attributeCapacity {
      let larger = UnsafeMutablePointer<Attribute>.allocate(capacity: attributeCapacity * 2)
      larger.moveInitialize(from: attributes, count: attributeCount)
      attributes.deallocate()
      attributes = larger
      attributeCapacity *= 2
    }
  }

  /// Not `xmlns`, `xmlns:…` or `xml:…` (they change what libxml2 knows of the scope), no
  /// local name given before (a repeated attribute is libxml2's error to report), and not past
  /// `maximumAttributes`.
  @inline(__always)
  private func isNewAttribute(_ base: UnsafePointer<UInt8>, _ name: Name, since first: Int)
    -> Bool
  {
    // `xml…` as the whole name or its prefix; compared byte by byte, as most names are not.
    if base[name.start] == UInt8(ascii: "x"), name.start &+ 3 <= name.end,
      base[name.start &+ 1] == UInt8(ascii: "m"), base[name.start &+ 2] == UInt8(ascii: "l")
    {
      let stem = name.hasPrefix ? name.colon : name.end
      let isXMLNS =
        stem == name.start &+ 5 && base[name.start &+ 3] == UInt8(ascii: "n")
        && base[name.start &+ 4] == UInt8(ascii: "s")
      if (name.hasPrefix && stem == name.start &+ 3) || isXMLNS { return false }
    }
    guard attributeCount > first else { return true }
    // Each is compared with those before it: past a few dozen, libxml2 reads the tag (and a
    // document whose element has too many ends there: `Limits.maxAttributes`).
    guard attributeCount &- first < Self.maximumAttributes else { return false }
    let localStart = name.localStart
    let length = name.end &- localStart
    for index in first..<attributeCount {
      let other = attributes[index].name
      let otherStart = other.localStart
      if other.end &- otherStart == length, Self.sameBytes(base, otherStart, localStart, length) {
        return false
      }
    }
    return true
  }

  /// Whether the `count` bytes at `first` and `second` are equal: names of 4 to 16 bytes (most
  /// end tags: `itunes:title`, `podcast:person`) compared in two overlapping words each, the
  /// rest by `memcmp` (a call for every end tag cost more than the comparison).
  @inline(__always)
  private static func sameBytes(
    _ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, _ count: Int
  ) -> Bool {
    let one = UnsafeRawPointer(first)
    let other = UnsafeRawPointer(second)
    if count >= 8 && count <= 16 {
      return one.loadUnaligned(as: UInt64.self) == other.loadUnaligned(as: UInt64.self)
        && one.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
          == other.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
    if count >= 4 && count < 8 {
      return one.loadUnaligned(as: UInt32.self) == other.loadUnaligned(as: UInt32.self)
        && one.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
          == other.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    }
    return memcmp(first, second, count) == 0
  }

  /// A byte-by-byte comparison: attribute names are a few bytes long, shorter than a call to
  /// `memcmp` costs.
  @inline(__always)
  private static func sameBytes(
    _ base: UnsafePointer<UInt8>, _ first: Int, _ second: Int, _ length: Int
  ) -> Bool {
    var index = 0
    while index < length {
      if base[first &+ index] != base[second &+ index] { return false }
      index &+= 1
    }
    return true
  }

  /// An ASCII name, `local` or `prefix:local`, followed by what may follow a name in a tag.
  @inline(__always)
  private static func name(
    _ base: UnsafePointer<UInt8>, _ count: Int, at position: inout Int,
    classes: UnsafePointer<UInt8>
  ) -> Name? {
    var index = position
    guard index < count, classes[Int(base[index])] & NameByteClasses.start != 0 else { return nil }
    index &+= 1
    while index < count, classes[Int(base[index])] & NameByteClasses.inName != 0 { index &+= 1 }
    var colon = -1
    if index < count, base[index] == UInt8(ascii: ":") {
      colon = index
      index &+= 1
      guard index < count, classes[Int(base[index])] & NameByteClasses.start != 0 else {
        return nil
      }
      index &+= 1
      while index < count, classes[Int(base[index])] & NameByteClasses.inName != 0 {
        index &+= 1
      }
    }
    guard index < count, classes[Int(base[index])] & NameByteClasses.follows != 0 else {
      return nil
    }
    defer { position = index }
    return Name(start: position, colon: colon, end: index)
  }

  /// Text with nothing `PlainCharacterData` must look at (`&`, CR, `]`) is plain; the rare
  /// rest it judges. Eight bytes at a time: most runs between tags are short and clean.
  private static func isPlainText(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int)
    -> Bool
  {
    // Long runs: libc's vectorised `memchr`, three passes, is faster than one pass here.
    if end &- start >= 256 { return slowPlain(base, start, end) }
    var index = start
    while index &+ 8 <= end {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      let stops =
        ByteWord.matches(word, UInt8(ascii: "&")) | ByteWord.matches(word, 0x0D)
        | ByteWord.matches(word, UInt8(ascii: "]"))
      if stops != 0 { return slowPlain(base, start, end) }
      index &+= 8
    }
    while index < end {
      let byte = base[index]
      if byte == UInt8(ascii: "&") || byte == 0x0D || byte == UInt8(ascii: "]") {
        return slowPlain(base, start, end)
      }
      index &+= 1
    }
    return true
  }

  private static func slowPlain(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    PlainCharacterData.isPlain(UnsafeRawBufferPointer(start: base + start, count: end &- start))
  }

  /// Skips spaces, tabs and line feeds (not CR, which libxml2 normalises); true when it
  /// skipped any.
  @inline(__always)
  private static func skipSpace(_ base: UnsafePointer<UInt8>, _ count: Int, at position: inout Int)
    -> Bool
  {
    let start = position
    while position < count {
      let byte = base[position]
      guard byte == 0x20 || byte == 0x09 || byte == 0x0A else { break }
      position &+= 1
    }
    return position > start
  }

  /// Where the tag starting at `start` ends, past its `>` (one outside quotes); nil when the
  /// piece cuts it off or another `<` comes first (a broken tag, for libxml2 to judge).
  static func tagEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from start: Int) -> Int? {
    closingBracket(base, count, from: start &+ 1)
  }

  /// Past the first `>` from `start` on that is outside quotes, for bytes inside a tag.
  static func closingBracket(_ base: UnsafePointer<UInt8>, _ count: Int, from start: Int) -> Int? {
    var quote: UInt8 = 0
    var index = start
    while index < count {
      let byte = base[index]
      if quote != 0 {
        if byte == quote { quote = 0 }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        quote = byte
      } else if byte == UInt8(ascii: ">") {
        return index &+ 1
      } else if byte == UInt8(ascii: "<") {
        return nil
      }
      index &+= 1
    }
    return nil
  }
}

/// What each byte may be in a name as the scanner reads it, one table look-up a byte (testing
/// ranges took twice the instructions, and a podcast's names are long: `podcast:transcript`).
enum NameByteClasses {
  /// May start a name (or its local part): ASCII letters and `_`.
  static let start: UInt8 = 1
  /// May continue one: letters, digits, `_`, `-` and `.`.
  static let inName: UInt8 = 2
  /// May follow a name in a tag: a space, tab or line feed, `>`, `/` or `=`.
  static let follows: UInt8 = 4

  /// Indexed by byte; made once, never written after, never freed (hence safe to share).
  nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    table.initialize(repeating: 0, count: 256)
    for byte in UInt8(ascii: "a")...UInt8(ascii: "z") {
      table[Int(byte)] = start | inName
      table[Int(byte) - 0x20] = start | inName
    }
    table[Int(UInt8(ascii: "_"))] = start | inName
    for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = inName }
    table[Int(UInt8(ascii: "-"))] = inName
    table[Int(UInt8(ascii: "."))] = inName
    for byte in [0x20, 0x0A, 0x09, UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "=")] {
      table[Int(byte)] = follows
    }
    return UnsafePointer(table)
  }()
}
