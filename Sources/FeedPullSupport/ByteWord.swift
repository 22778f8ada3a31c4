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

  /// The offset (0–7) of the first byte flagged in a non-zero mask; the word is little-endian.
  @inlinable @inline(__always)
  public static func firstMatch(_ mask: UInt64) -> Int {
    mask.trailingZeroBitCount &>> 3
  }
}
