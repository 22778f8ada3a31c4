/// A streaming 64-bit hash of a body's bytes. It only has to tell "the same bytes as the last
/// pull" from "different bytes" for one source, so a fast non-cryptographic mix is enough: one
/// multiply per byte (FNV-1a), carried across chunks so chunk boundaries do not change it.
struct BodyDigest {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    var hash = value
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    value = hash
  }
}
