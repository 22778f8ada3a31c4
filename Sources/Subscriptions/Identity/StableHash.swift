/// 64-bit FNV-1a over UTF-8 text: the same value in every process and on every machine (Swift's
/// `Hasher` is seeded per process, so it cannot be stored). Keys and fingerprints only need
/// to tell items of one source apart.
enum StableHash {
  static let seed: UInt64 = 0xcbf2_9ce4_8422_2325

  static func add(_ text: String?, to hash: inout UInt64) {
    if let text {
      for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    }
    // A separator, so that ("ab", "c") and ("a", "bc") differ.
    hash = (hash ^ 0xff) &* 0x0000_0100_0000_01b3
  }

  static func add(_ bytes: [UInt8]?, to hash: inout UInt64) {
    if let bytes {
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    }
    hash = (hash ^ 0xff) &* 0x0000_0100_0000_01b3
  }

  /// Stored as SQLite's signed INTEGER.
  static func of(_ text: String) -> Int64 {
    var hash = seed
    add(text, to: &hash)
    return Int64(bitPattern: hash)
  }
}
