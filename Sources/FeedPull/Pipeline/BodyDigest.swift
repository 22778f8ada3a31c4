/// A streaming 64-bit hash of a body's bytes. It only has to tell "the same bytes as the last
/// pull" from "different bytes" for one source, so a fast non-cryptographic mix is enough: one
/// multiply per eight bytes, the bytes of a word cut by a chunk boundary carried to the next
/// chunk, so chunk boundaries do not change it; the length is folded in at the end.
///
/// A byte-at-a-time FNV-1a before cost about 16 k instructions for a 4 KB body, the largest
/// single cost `--state` adds to a pull that downloads; a new digest means one body per source
/// is not recognised as unchanged after an upgrade (its items are still judged one by one, so
/// none is delivered twice).
struct BodyDigest {
  private var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  /// The bytes of a word not yet whole, little-endian from the low byte.
  private var pending: UInt64 = 0
  private var pendingCount = 0
  private var length: UInt64 = 0

  /// The digest of every byte added so far.
  var value: UInt64 {
    Self.mix(Self.mix(hash ^ pending) ^ length)
  }

  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    let count = bytes.count
    length &+= UInt64(count)
    var offset = 0
    if pendingCount > 0 {
      while pendingCount < 8 && offset < count {
        pending |= UInt64(bytes[offset]) << UInt64(8 * pendingCount)
        pendingCount += 1
        offset += 1
      }
      guard pendingCount == 8 else { return }
      hash = Self.mix(hash ^ pending)
      pending = 0
      pendingCount = 0
    }
    var state = hash
    while offset + 8 <= count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      state = Self.mix(state ^ word)
      offset += 8
    }
    hash = state
    while offset < count {
      pending |= UInt64(bytes[offset]) << UInt64(8 * pendingCount)
      pendingCount += 1
      offset += 1
    }
  }

  /// One multiply and a fold of the high bits down: every input bit reaches the low bits that
  /// the next word is xor-ed into.
  private static func mix(_ value: UInt64) -> UInt64 {
    let product = value &* 0x9e37_79b9_7f4a_7c15
    return product ^ (product >> 29)
  }
}
