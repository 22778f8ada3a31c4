/// Tests on eight bytes at once, for the scanners in front of libxml2: most words of a feed hold
/// nothing a scanner stops at, and skipping them whole is what keeps the repair pass cheap next
/// to libxml2 itself. The tests never miss a byte they look for (a rare false alarm only sends
/// a word down the byte-by-byte path). Bit tricks from "Bit Twiddling Hacks" (haszero, hasless).
enum ByteWord {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The high bit set in each byte that may equal `byte`. The lowest set bit is exact (borrows
  /// only run upward), so `firstMatch` of an OR of masks finds the first byte sought.
  @inline(__always)
  static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let probe = word ^ (ones &* UInt64(byte))
    return (probe &- ones) & ~probe & highs
  }

  /// The high bit set in each byte that may be below `limit` (at most 128).
  @inline(__always)
  static func matchesBelow(_ word: UInt64, _ limit: UInt8) -> UInt64 {
    (word &- ones &* UInt64(limit)) & ~word & highs
  }

  /// The offset (0–7) of the first byte flagged in a non-zero mask; the word is little-endian.
  @inline(__always)
  static func firstMatch(_ mask: UInt64) -> Int {
    mask.trailingZeroBitCount >> 3
  }
}
