import FeedPullSupport

/// A name's bytes boiled down for the direct-mapped tables that stand in front of slower
/// look-ups (`InternedNames`, the scanner's `notParents`): its first eight bytes, and a hash of
/// those, its last byte and its length. Equal names have equal keys; a table compares `head`
/// (and the rest of a longer name) before trusting a hit.
struct NameKey {
  /// The first eight bytes, zero-padded.
  let head: UInt64
  let hash: UInt64

  @inline(__always)
  init(_ bytes: UnsafePointer<UInt8>, count: Int) {
    let head = ByteWord.load(bytes, count: min(count, 8))
    self.head = head
    let last = UInt64(bytes[count &- 1])
    hash = (head ^ (head &>> 27) ^ (last &<< 40) ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
  }

  /// The slot of a table of 2^`bits` entries.
  @inline(__always)
  func slot(bits: Int) -> Int { Int(truncatingIfNeeded: hash &>> UInt64(64 - bits)) }
}
