import FeedPullSupport

/// A fixed set of HTML names (elements or attributes), looked up by their bytes in any letter
/// case without making a `String`: a name is folded to lower case a word at a time into at most
/// three 64-bit words, hashed, and found by linear probing. The sanitizer looks up every tag
/// and attribute of every HTML text, so a `Set<String>` (a string made, hashed with SipHash and
/// freed for each) would cost more than the rest of the tag.
///
/// Each entry carries `Info` (flags a vocabulary defines) and its canonical spelling, which
/// differs from the folded one only for SVG's camel-case names (`viewBox`, `linearGradient`).
struct HTMLNameTable<Info> {
  /// Names longer than this are in no table (the longest one feedparser lists has 23 bytes).
  static var maxLength: Int { 24 }

  struct Key: Equatable, Sendable {
    var w0: UInt64
    var w1: UInt64
    var w2: UInt64
    var length: Int

    @inline(__always)
    var slotHash: UInt64 {
      (w0 &* 0x9E37_79B9_7F4A_7C15) ^ (w1 &* 0xC2B2_AE3D_27D4_EB4F)
        ^ (w2 &* 0x1656_67B1_9E37_79F9) ^ UInt64(length)
    }
  }

  /// One name of the table.
  struct Entry {
    /// What the vocabulary says about the name.
    var info: Info
    /// The name as it is written out (lower case, or SVG's camel case).
    var spelling: [UInt8]
  }

  private var keys: [Key?]
  private var slots: [Int32]
  private(set) var entries: [Entry] = []
  private let bits: Int

  /// A table of `names` with their infos; a name given twice keeps its first info.
  init(_ names: [(String, Info)]) {
    var bits = 4
    while 1 << bits < names.count * 4 { bits += 1 }
    self.bits = bits
    keys = Array(repeating: nil, count: 1 << bits)
    slots = Array(repeating: -1, count: 1 << bits)
    for (name, info) in names {
      let bytes = Array(name.utf8)
      precondition(bytes.count <= Self.maxLength, "a name longer than the table's keys")
      let key = bytes.withUnsafeBufferPointer { Self.key($0.baseAddress!, $0.count) }
      var slot = Int(truncatingIfNeeded: key.slotHash &>> UInt64(64 - bits))
      while let existing = keys[slot] {
        if existing == key { break }
        slot = (slot + 1) & ((1 << bits) - 1)
      }
      guard keys[slot] == nil else { continue }
      keys[slot] = key
      slots[slot] = Int32(entries.count)
      entries.append(Entry(info: info, spelling: bytes))
    }
  }

  /// The entry of the name `bytes[0..<count]`, compared without regard to ASCII letter case.
  @inline(__always)
  func entry(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Entry? {
    guard let index = index(bytes, count) else { return nil }
    return entries[index]
  }

  /// The index in `entries` of the name, if the table holds it.
  func index(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int? {
    guard count > 0, count <= Self.maxLength else { return nil }
    let key = Self.key(bytes, count)
    let mask = (1 << bits) - 1
    var slot = Int(truncatingIfNeeded: key.slotHash &>> UInt64(64 - bits))
    while let candidate = keys[slot] {
      if candidate == key { return Int(slots[slot]) }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// The name folded to lower case in three words (zero beyond its end).
  @inline(__always)
  private static func key(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Key {
    let w0 = lowercased(ByteWord.load(bytes, count: min(count, 8)))
    let w1 = count > 8 ? lowercased(ByteWord.load(bytes + 8, count: min(count - 8, 8))) : 0
    let w2 = count > 16 ? lowercased(ByteWord.load(bytes + 16, count: count - 16)) : 0
    return Key(w0: w0, w1: w1, w2: w2, length: count)
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

extension HTMLNameTable: Sendable where Info: Sendable {}
extension HTMLNameTable.Entry: Sendable where Info: Sendable {}
