#if canImport(Glibc)
  import Glibc
#endif

/// Start tags with a plain link the sanitizer decides (`HTMLKeptStartTags.Tag.links`: a
/// relative `href` or `src`, most often), remembered by their bytes with what the sanitizer
/// wrote for them, so that the same tag met again against the same base is written without
/// reading or deciding it again.
///
/// Feeds repeat such tags (`<a href="../related/">` in every item, a few `/archive/…/` links):
/// the generated 5 MB RSS 2.0 file holds 1,602 of them, 27 distinct. Resolving one's links and
/// writing it anew costs about 2,100 instructions; finding it here, comparing its bytes and
/// copying what was written about 200. What the sanitizer writes for such a tag depends only
/// on its bytes and the base (`HTMLSanitizer.keepsLinks`), so an entry is used only for the
/// very same bytes, and all are forgotten when the base changes.
///
/// Sixty-four entries, two slots a tag (a newer tag takes the place of the older of its two).
/// Plain memory, one per sanitizer; not thread-safe.
final class HTMLRewrittenStartTags {
  /// One tag: its bytes as written, and what the sanitizer writes in its place (nil: the tag
  /// as written).
  struct Entry {
    var tag: [UInt8] = []
    var written: [UInt8]? = nil
  }

  private static var slotCount: Int { 64 }
  private let entries: UnsafeMutablePointer<Entry>
  /// Which of each pair of slots was filled last.
  private var newer: UInt64 = 0
  /// The base the entries were decided against.
  private var base: String?
  /// Whether any entry is filled.
  private var isEmpty = true

  init() {
    entries = .allocate(capacity: Self.slotCount)
    entries.initialize(repeating: Entry(), count: Self.slotCount)
  }

  deinit {
    entries.deinitialize(count: Self.slotCount)
    entries.deallocate()
  }

  /// The entry for the start tag `bytes[start..<end]` decided against `base`, if remembered.
  @inline(__always)
  func entry(
    _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, base: String?
  ) -> UnsafeMutablePointer<Entry>? {
    guard !isEmpty else { return nil }
    let count = end &- start
    let first = entries + Self.slot(bytes, from: start, to: end)
    if first.pointee.tag.count == count, Self.holds(first, bytes + start, count) {
      return self.base == base ? first : nil
    }
    let second = entries + (Self.slot(bytes, from: start, to: end) ^ 1)
    if second.pointee.tag.count == count, Self.holds(second, bytes + start, count) {
      return self.base == base ? second : nil
    }
    return nil
  }

  /// Whether `entry`'s tag is the `count` bytes at `bytes`.
  @inline(__always)
  private static func holds(
    _ entry: UnsafeMutablePointer<Entry>, _ bytes: UnsafePointer<UInt8>, _ count: Int
  ) -> Bool {
    entry.pointee.tag.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes, count) == 0 }
  }

  /// Remembers the tag `bytes[start..<end]`, decided against `base`, and what was written for
  /// it (nil: the tag as written).
  func remember(
    _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, base: String?,
    written: UnsafeBufferPointer<UInt8>?
  ) {
    if isEmpty || self.base != base {
      if !isEmpty {
        for index in 0..<Self.slotCount { entries[index] = Entry() }
      }
      self.base = base
    }
    isEmpty = false
    // The older of the two slots.
    var slot = Self.slot(bytes, from: start, to: end)
    if newer & (1 &<< UInt64(slot)) != 0 { slot ^= 1 }
    newer &= ~(1 &<< UInt64(slot ^ 1))
    newer |= 1 &<< UInt64(slot)
    entries[slot] = Entry(
      tag: Self.copy(UnsafeBufferPointer(start: bytes + start, count: end &- start)),
      written: written.map { Self.copy($0) })
  }

  /// An array holding `bytes`, copied by `memcpy`: `Array(bytes)` specializes the standard
  /// library's element-by-element copy for byte buffers, which every `append(contentsOf:)` of a
  /// buffer in the module then called instead of copying in one go.
  private static func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
      if let source = bytes.baseAddress, bytes.count > 0 {
        memcpy(buffer.baseAddress!, source, bytes.count)
      }
      count = bytes.count
    }
  }

  /// The first slot of a tag (nine bytes or more): its length, its last eight bytes and eight
  /// from its middle, mixed; the second is its neighbour.
  @inline(__always)
  private static func slot(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
    let count = end &- start
    let last = UnsafeRawPointer(bytes + (end &- 8)).loadUnaligned(as: UInt64.self)
    let middle = UnsafeRawPointer(bytes + (start &+ count &>> 1 &- 4)).loadUnaligned(
      as: UInt64.self)
    let mixed =
      (last &* 0x9E37_79B9_7F4A_7C15) ^ (middle &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
    return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) &>> 58)
  }
}
