import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A fixed set of names (HTML elements, attributes, character references), looked up by their
/// bytes without making a `String`: a name is read into at most four 64-bit words (folded to
/// lower case for HTML names, as they are case-insensitive; kept as they are for references,
/// which are not), hashed, and found by linear probing. The sanitizer looks up every tag and
/// attribute of every HTML text, so a `Set<String>` (a string made, hashed with SipHash and
/// freed for each) would cost more than the rest of the tag.
///
/// Each row carries an `Info` (flags a vocabulary defines, a reference's characters) and its
/// spelling as written out, which differs from the folded one only for SVG's camel-case names
/// (`viewBox`, `linearGradient`).
///
/// The tables are built once and live as long as the process: their storage is plain memory
/// that is never freed, so a table is a value of pointers that copies without reference
/// counting (a table of arrays retained and released its arrays at every look-up, a quarter
/// of the sanitizer's time).
struct HTMLNameTable<Info: BitwiseCopyable>: @unchecked Sendable {
  /// Names longer than this are in no table (HTML5's longest reference name has 31 bytes).
  static var maxLength: Int { 32 }

  /// Four words of name per slot, then its length (0: empty) and its row.
  private let slotWords: UnsafeMutablePointer<UInt64>
  private let slotLengths: UnsafeMutablePointer<Int32>
  private let slotRows: UnsafeMutablePointer<Int32>
  private let infos: UnsafeMutablePointer<Info>
  /// Row `r`'s spelling is `spellings[spellingStarts[r]..<spellingStarts[r + 1]]`.
  private let spellingStarts: UnsafeMutablePointer<Int32>
  private let spellings: UnsafeMutablePointer<UInt8>
  /// The slot count less one, and how far a hash is shifted to give a slot (both from the
  /// table's size, worked out once rather than at every look-up).
  private let slotMask: Int
  private let shift: UInt64
  private let foldsCase: Bool
  /// How many names the table holds.
  let count: Int

  /// A table of `names` with their infos; a name given twice keeps its first info.
  /// `foldsCase`: look names up without regard to ASCII letter case.
  init(_ names: [(String, Info)], foldsCase: Bool = true) {
    var bytes: [UInt8] = []
    var entries: [Entry] = []
    entries.reserveCapacity(names.count)
    for (name, info) in names {
      let start = bytes.count
      bytes.append(contentsOf: name.utf8)
      entries.append(Entry(start: start, count: bytes.count - start, info: info))
    }
    self = bytes.withUnsafeBufferPointer { bytes in
      entries.withUnsafeBufferPointer { Self(bytes, entries: $0, foldsCase: foldsCase) }
    }
  }

  /// A name of a table being built: `count` bytes from `start` of the names' bytes.
  struct Entry {
    var start: Int
    var count: Int
    var info: Info
  }

  /// A table of the names `entries` picks out of `bytes`, with their infos; a name given
  /// twice keeps its first info, or with `combining` the two infos combined when it is
  /// spelled the same (the vocabulary's lists name an element in several). Built from bytes,
  /// without a `String` or an array a name: HTML5's 2,125 references took 3 million
  /// instructions that way, once in every process that met one.
  init(
    _ bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<Entry>, foldsCase: Bool,
    combining: ((Info, Info) -> Info)? = nil
  ) {
    var bits = 4
    while 1 << bits < entries.count * 3 { bits += 1 }
    slotMask = (1 << bits) - 1
    shift = UInt64(64 - bits)
    let slotMask = slotMask
    let shift = shift
    self.foldsCase = foldsCase
    let slots = 1 << bits
    let slotWords = UnsafeMutablePointer<UInt64>.allocate(capacity: slots * 4)
    slotWords.initialize(repeating: 0, count: slots * 4)
    let slotLengths = UnsafeMutablePointer<Int32>.allocate(capacity: slots)
    slotLengths.initialize(repeating: 0, count: slots)
    let slotRows = UnsafeMutablePointer<Int32>.allocate(capacity: slots)
    slotRows.initialize(repeating: -1, count: slots)
    self.slotWords = slotWords
    self.slotLengths = slotLengths
    self.slotRows = slotRows
    // At most a row a name, and the names' bytes for the spellings.
    let infos = UnsafeMutablePointer<Info>.allocate(capacity: max(1, entries.count))
    let spellingStarts = UnsafeMutablePointer<Int32>.allocate(capacity: entries.count + 1)
    let spellings = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
    spellingStarts.initialize(to: 0)
    var rows = 0
    var spelled = 0
    for entry in entries {
      let name = bytes.baseAddress! + entry.start
      precondition(entry.count > 0 && entry.count <= Self.maxLength, "a name the keys cannot hold")
      let found = Self.probe(name, entry.count, foldsCase, slotMask, shift, slotWords, slotLengths)
      guard slotLengths[found.slot] == 0 else {
        let row = Int(slotRows[found.slot])
        let start = Int(spellingStarts[row])
        if let combining, Int(spellingStarts[row + 1]) - start == entry.count,
          memcmp(spellings + start, name, entry.count) == 0
        {
          infos[row] = combining(infos[row], entry.info)
        }
        continue
      }
      let words = slotWords + found.slot * 4
      (words[0], words[1], words[2], words[3]) = found.key
      slotLengths[found.slot] = Int32(entry.count)
      slotRows[found.slot] = Int32(rows)
      (infos + rows).initialize(to: entry.info)
      (spellings + spelled).initialize(from: name, count: entry.count)
      spelled += entry.count
      rows += 1
      (spellingStarts + rows).initialize(to: Int32(spelled))
    }
    count = rows
    self.infos = infos
    self.spellingStarts = spellingStarts
    self.spellings = spellings
  }

  /// The row of the name `bytes[0..<count]`, if the table holds it.
  @inline(__always)
  func row(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int? {
    guard count > 0, count <= Self.maxLength else { return nil }
    let found = Self.probe(bytes, count, foldsCase, slotMask, shift, slotWords, slotLengths)
    return slotLengths[found.slot] == 0 ? nil : Int(slotRows[found.slot])
  }

  /// What the vocabulary says about row `row`.
  @inline(__always)
  func info(_ row: Int) -> Info { infos[row] }

  /// Row `row`'s name as it is written out.
  @inline(__always)
  func spelling(_ row: Int) -> UnsafeBufferPointer<UInt8> {
    let start = Int(spellingStarts[row])
    return UnsafeBufferPointer(
      start: spellings + start, count: Int(spellingStarts[row + 1]) - start)
  }

  /// True when `bytes[0..<count]` is row `row`'s name exactly as it is written out (no
  /// letter in another case): a tag that needs no rewriting.
  @inline(__always)
  func isSpelled(_ row: Int, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    let start = Int(spellingStarts[row])
    guard Int(spellingStarts[row + 1]) - start == count else { return false }
    if count <= 8 {
      return ByteWord.load(bytes, count: count) == ByteWord.load(spellings + start, count: count)
    }
    return memcmp(bytes, spellings + start, count) == 0
  }

  /// The slot holding the name, or the empty slot where it would go, and its key.
  @inline(__always)
  private static func probe(
    _ bytes: UnsafePointer<UInt8>, _ count: Int, _ foldsCase: Bool, _ mask: Int, _ shift: UInt64,
    _ words: UnsafeMutablePointer<UInt64>, _ lengths: UnsafeMutablePointer<Int32>
  ) -> (slot: Int, key: (UInt64, UInt64, UInt64, UInt64)) {
    @inline(__always) func word(_ offset: Int) -> UInt64 {
      guard count > offset else { return 0 }
      let loaded = ByteWord.load(bytes + offset, count: min(count - offset, 8))
      return foldsCase ? lowercased(loaded) : loaded
    }
    if count <= 8 {
      // Most names: one word, the other three zero (in the key and in every slot of a name
      // this long), so the hash below comes to this and one compare tells a slot.
      let key = word(0)
      let hash = (key &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(count)
      var slot = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) &>> shift)
      while true {
        let length = Int(lengths[slot])
        if length == 0 || (length == count && words[slot &<< 2] == key) {
          return (slot, (key, 0, 0, 0))
        }
        slot = (slot &+ 1) & mask
      }
    }
    let key = (word(0), word(8), word(16), word(24))
    let hash =
      (key.0 &* 0x9E37_79B9_7F4A_7C15) ^ (key.1 &* 0xC2B2_AE3D_27D4_EB4F)
      ^ (key.2 &* 0x1656_67B1_9E37_79F9) ^ (key.3 &* 0x27D4_EB2F_1656_67C5) ^ UInt64(count)
    var slot = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    while true {
      let length = Int(lengths[slot])
      if length == 0 { return (slot, key) }
      let base = words + (slot &<< 2)
      if length == count && base[0] == key.0 && base[1] == key.1 && base[2] == key.2
        && base[3] == key.3
      {
        return (slot, key)
      }
      slot = (slot &+ 1) & mask
    }
  }

  /// ASCII `A`–`Z` in each byte of the word turned to `a`–`z`; other bytes unchanged.
  @inline(__always)
  static func lowercased(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let low = word & (ones &* 0x7F)
    // High bit of each byte set when the byte is in `A`...`Z` (and below 0x80).
    let aboveA = low &+ ones &* (0x80 - 0x41)
    let aboveZ = low &+ ones &* (0x80 - 0x5B)
    let upper = aboveA & ~aboveZ & ~word & (ones &* 0x80)
    return word | (upper &>> 2)
  }
}

/// The rows of the elements opened last and not yet closed, the innermost last (up to 64):
/// an end tag that closes the innermost, as most do, is known without a look-up. Only a
/// shortcut: an end tag with another name is looked up, and what the stack holds past badly
/// nested markup costs a look-up, never a wrong row. The count lives with the caller, so that
/// pushing and popping is plain memory (a class's stored `var` is checked for exclusive access
/// at run time).
final class HTMLOpenElements {
  private let rows: UnsafeMutablePointer<Int>
  private static var capacity: Int { 64 }

  init() {
    rows = .allocate(capacity: Self.capacity)
    rows.initialize(repeating: 0, count: Self.capacity)
  }

  deinit { rows.deallocate() }

  /// `row` opened (dropped when the stack is full).
  @inline(__always)
  func push(_ row: Int, _ count: inout Int) {
    guard count < Self.capacity else { return }
    rows[count] = row
    count += 1
  }

  /// When `input` has at `start` the end tag of the innermost element written exactly as
  /// `table` spells it (`</p>`, most end tags), its row and where the tag ends (just past
  /// it), so that it is known without tokenizing it; the caller pops it if it takes it.
  @inline(__always)
  func closingTag<Info>(
    at start: Int, in input: UnsafeBufferPointer<UInt8>, _ count: Int, _ table: HTMLNameTable<Info>
  ) -> (row: Int, end: Int)? {
    guard count > 0, start &+ 3 < input.count else { return nil }
    let base = input.baseAddress!
    guard base[start] == UInt8(ascii: "<"), base[start &+ 1] == UInt8(ascii: "/") else {
      return nil
    }
    let row = rows[count &- 1]
    let length = table.spelling(row).count
    let end = start &+ 2 &+ length
    guard end < input.count, base[end] == UInt8(ascii: ">"),
      table.isSpelled(row, base + (start &+ 2), length)
    else { return nil }
    return (row, end &+ 1)
  }

  /// The innermost row, popped, when `name` (`length` bytes) is its name as `table` writes it.
  @inline(__always)
  func closedRow<Info>(
    _ name: UnsafePointer<UInt8>, _ length: Int, _ count: inout Int, _ table: HTMLNameTable<Info>
  ) -> Int? {
    guard count > 0, table.isSpelled(rows[count - 1], name, length) else { return nil }
    count -= 1
    return rows[count]
  }
}

extension UnsafeBufferPointer where Element == UInt8 {
  /// The same bytes as `text`.
  func equals(_ text: StaticString) -> Bool {
    count == text.utf8CodeUnitCount
      && (count == 0 || memcmp(baseAddress!, text.utf8Start, count) == 0)
  }

  /// The same bytes as `range` of `other`.
  @inline(__always)
  func equals(_ other: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    guard count == range.count else { return false }
    guard let base = baseAddress, let otherBase = other.baseAddress else { return count == 0 }
    return memcmp(base, otherBase + range.lowerBound, count) == 0
  }
}

/// The rows of names looked up lately, by their exact bytes (names of up to eight bytes, in a
/// few slots picked by a multiply): the same few names (`src`, `alt`, `width`, `href`, `img`,
/// `a`) come back at every tag, and a slot that holds one answers with a compare where a
/// table look-up is a call and a probe. Only a shortcut: a name a slot does not hold is looked
/// up in the table, whose answer (a row, or none) then takes the slot. Each `part` is a table
/// of its own (attributes, elements). Plain memory, one per sanitizer; not thread-safe.
final class HTMLRecentNames {
  private struct Slot {
    var key: UInt64
    /// The name's length; 0 for an empty slot (no name is empty).
    var count: Int
    /// The row, or -1 for a name the table does not hold.
    var row: Int
  }

  private static var slotsPerPart: Int { 16 }
  private let slots: UnsafeMutablePointer<Slot>
  private let slotCount: Int

  init(parts: Int) {
    slotCount = parts * Self.slotsPerPart
    slots = .allocate(capacity: slotCount)
    slots.initialize(repeating: Slot(key: 0, count: 0, row: -1), count: slotCount)
  }

  deinit { slots.deallocate() }

  /// `table.row(bytes, count)`, from a slot of `part` when it holds these bytes.
  @inline(__always)
  func row<Info>(
    _ bytes: UnsafePointer<UInt8>, _ count: Int, in table: HTMLNameTable<Info>, part: Int
  ) -> Int? {
    guard count > 0 && count <= 8 else { return table.row(bytes, count) }
    let key = ByteWord.load(bytes, count: count)
    let index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> 60)
    let slot = slots + (part &* Self.slotsPerPart &+ index)
    if slot.pointee.count == count && slot.pointee.key == key {
      let row = slot.pointee.row
      return row < 0 ? nil : row
    }
    let row = table.row(bytes, count)
    slot.pointee = Slot(key: key, count: count, row: row ?? -1)
    return row
  }
}
