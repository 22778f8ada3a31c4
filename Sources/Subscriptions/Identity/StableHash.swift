/// A 64-bit hash over bytes that is the same in every process and on every machine (Swift's
/// `Hasher` is seeded per process, so its values cannot be stored). It reads eight bytes at a
/// time as a little-endian word (a byte-at-a-time FNV-1a was a fifth of a `--state` run's time
/// on a 100 MB feed). Keys and fingerprints only need to tell items of one source apart, so a
/// fast non-cryptographic mix is enough.
enum StableHash {
  static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
  private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

  static func add(_ text: String?, to hash: inout UInt64) {
    guard var text else { return add(nil as [UInt8]?, to: &hash) }
    text.withUTF8 { add($0, to: &hash) }
  }

  static func add(_ bytes: [UInt8]?, to hash: inout UInt64) {
    guard let bytes else {
      // Absent differs from empty.
      hash = mix(hash ^ 0xff)
      return
    }
    bytes.withUnsafeBufferPointer { add($0, to: &hash) }
  }

  /// Folds `bytes` and then their length into `hash`: ("ab", "c") and ("a", "bc") differ.
  static func add(_ bytes: UnsafeBufferPointer<UInt8>, to hash: inout UInt64) {
    let raw = UnsafeRawBufferPointer(bytes)
    var value = hash
    var offset = 0
    while offset + 8 <= raw.count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      value = mix(value ^ word)
      offset += 8
    }
    value = mix(value ^ tail(of: raw, from: offset))
    hash = mix(value ^ UInt64(raw.count))
  }

  /// Folds the same `bytes` into two hashes in one pass, each exactly as `add(_:to:)` would:
  /// an item's body goes into its content key and its fingerprint, and reading it once (two
  /// independent multiply chains per word) costs about half of reading it twice.
  static func add(
    _ bytes: UnsafeBufferPointer<UInt8>, to first: inout UInt64, and second: inout UInt64
  ) {
    let raw = UnsafeRawBufferPointer(bytes)
    var one = first
    var two = second
    var offset = 0
    while offset + 8 <= raw.count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      one = mix(one ^ word)
      two = mix(two ^ word)
      offset += 8
    }
    let rest = tail(of: raw, from: offset)
    let length = UInt64(raw.count)
    first = mix(mix(one ^ rest) ^ length)
    second = mix(mix(two ^ rest) ^ length)
  }

  /// The bytes after the last whole word, little-endian in one word (zero-filled): both
  /// `add` functions end with it, so their values stay the same.
  private static func tail(of raw: UnsafeRawBufferPointer, from start: Int) -> UInt64 {
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    var offset = start
    while offset < raw.count {
      tail |= UInt64(raw[offset]) << shift
      shift += 8
      offset += 1
    }
    return tail
  }

  /// Stored as SQLite's signed INTEGER.
  static func of(_ text: String) -> Int64 {
    var hash = seed
    add(text, to: &hash)
    return Int64(bitPattern: hash)
  }

  private static func mix(_ value: UInt64) -> UInt64 {
    let product = value &* multiplier
    return product ^ (product >> 29)
  }
}
