/// Tests on eight bytes at once, for every scanner that looks for a few bytes in long runs of
/// text: the repair filter and the CDATA scan in front of libxml2, the UTF-8 repair, and the
/// JSON writer's escaping. Most words of a feed hold nothing a scanner stops at, and skipping
/// them whole is what keeps those passes cheap next to libxml2 itself. The tests never miss a
/// byte they look for (a rare false alarm only sends a word down the byte-by-byte path). Bit
/// tricks from "Bit Twiddling Hacks" (haszero, hasless).
///
/// Public and `@inlinable` because each call is a handful of instructions in an inner loop of
/// another module, and Swift 6.3.1 left `package` ones out of line (bench/README.md has the
/// measurement). Not API: no product exports this target.
public enum ByteWord {
  /// The high bit set in each byte that may equal `byte`. The lowest set bit is exact (borrows
  /// only run upward), so `firstMatch` of an OR of masks finds the first byte sought.
  @inlinable @inline(__always)
  public static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let probe = word ^ (ones &* UInt64(byte))
    return (probe &- ones) & ~probe & 0x8080_8080_8080_8080
  }

  /// The high bit set in each byte that may be below `limit` (at most 128).
  @inlinable @inline(__always)
  public static func matchesBelow(_ word: UInt64, _ limit: UInt8) -> UInt64 {
    (word &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & 0x8080_8080_8080_8080
  }

  /// The high bit of each byte that is not ASCII (exact: no borrows involved).
  @inlinable @inline(__always)
  public static func nonASCII(_ word: UInt64) -> UInt64 {
    word & 0x8080_8080_8080_8080
  }

  /// The first `count` bytes at `start` (at most eight; the rest of the word zero), read with
  /// at most two overlapping loads, so that nothing past `start + count` is read: the end of a
  /// string the JSON writer escapes, the head of a name a table keys on. A copy of a variable
  /// length is a `memcpy` call, and a byte at a time was a third of writing a short string.
  @inlinable @inline(__always)
  public static func load(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
    let raw = UnsafeRawPointer(start)
    if count >= 8 { return raw.loadUnaligned(as: UInt64.self) }
    if count >= 4 {
      let low = UInt64(raw.loadUnaligned(as: UInt32.self))
      let high = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
      return low | high &<< UInt64((count &- 4) &* 8)
    }
    if count >= 2 {
      let low = UInt64(raw.loadUnaligned(as: UInt16.self))
      let high = UInt64(raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))
      return low | high &<< UInt64((count &- 2) &* 8)
    }
    return count == 1 ? UInt64(start[0]) : 0
  }

  /// The offset (0–7) of the first byte flagged in a non-zero mask; the word is little-endian.
  @inlinable @inline(__always)
  public static func firstMatch(_ mask: UInt64) -> Int {
    mask.trailingZeroBitCount &>> 3
  }
}
