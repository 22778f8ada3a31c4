#if canImport(Glibc)
  import Glibc
#endif

/// Start tags with a plain link the sanitizer decides (`HTMLKeptStartTags.Tag.links`: a
/// relative `href` or `src`, most often), remembered by their bytes with what the sanitizer
/// wrote for them, so that the same tag met again against the same base is written without
/// reading or deciding it again.
///
/// Feeds repeat such tags (`<a href="../related/">` in every item, a few `/archive/…/` links):
/// the generated 5 MB RSS 2.0 file holds 1,602 of them, 27 distinct. Reading one
/// (`HTMLKeptStartTags`, about 600 instructions), resolving its links and writing it anew
/// (about 2,100) is done once; finding it again before it is read, comparing its bytes and
/// copying what was written costs about 250. What the sanitizer writes for such a tag depends
/// only on its bytes and the base (`HTMLSanitizer.keepsLinks`), so an entry is used only for
/// the very same bytes, and all are forgotten when the base changes.
///
/// 256 entries, two slots a tag (a newer tag takes the place of the older of its two).
/// Plain memory, one per sanitizer, made when the first tag is remembered: a document whose
/// links are all absolute (most) never needs it, and making and freeing the 256 entries was
/// some 12,000 instructions a sanitizer, 2.4% of a pull of a thousand small feeds (callgrind).
/// Not thread-safe.
final class HTMLRewrittenStartTags {
  /// One tag: its bytes as written, what the sanitizer writes in its place (nil: the tag as
  /// written), its element's row and whether it opens the element.
  struct Entry {
    var tag: [UInt8] = []
    var written: [UInt8]? = nil
    var row = 0
    var opens = false
    /// When it was filled (0: never).
    var stamp = 0
  }

  private static var slotCount: Int { 256 }
  /// Nil until a tag is remembered (`isEmpty` until then).
  private var storage: UnsafeMutablePointer<Entry>?
  /// Counts the entries filled, for their stamps.
  private var clock = 0
  /// The base the entries were decided against.
  private var base: String?
  /// Whether any entry is filled.
  private var isEmpty = true

  init() {}

  deinit {
    if let storage {
      storage.deinitialize(count: Self.slotCount)
      storage.deallocate()
    }
  }

  /// The entries; only once one is filled (`isEmpty` false), or by `remember`.
  private var entries: UnsafeMutablePointer<Entry> {
    @inline(__always) get { storage.unsafelyUnwrapped }
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

  /// The entry for the start tag at `start` (a `<`) of `input` decided against `base`, found
  /// before the tag is read: nil at once when its first value starts `http` (a link kept as
  /// written, most tags), else the tag is taken to end at its first `>` within eighty bytes
  /// (a remembered tag holds no other `>`: `HTMLKeptStartTags` takes none inside a tag).
  @inline(__always)
  func entry(
    at start: Int, in input: UnsafeBufferPointer<UInt8>, base: String?
  ) -> UnsafeMutablePointer<Entry>? {
    guard !isEmpty, start &+ 24 <= input.count, let bytes = input.baseAddress else {
      return nil
    }
    let look = UnsafeRawPointer(bytes + start).loadUnaligned(as: SIMD16<UInt8>.self)
    let quotes = look .== SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
    if HTMLTokenizer.anyLane(quotes) {
      let value = start &+ HTMLTokenizer.firstLane(quotes) &+ 1
      // Little-endian `http`.
      if UnsafeRawPointer(bytes + value).loadUnaligned(as: UInt32.self) == 0x7074_7468 {
        return nil
      }
    }
    var block = start
    let limit = min(input.count, start &+ 80)
    var end = 0
    while block &+ 16 <= limit {
      let isBracket =
        UnsafeRawPointer(bytes + block).loadUnaligned(as: SIMD16<UInt8>.self)
        .== SIMD16<UInt8>(repeating: UInt8(ascii: ">"))
      if HTMLTokenizer.anyLane(isBracket) {
        end = block &+ HTMLTokenizer.firstLane(isBracket) &+ 1
        break
      }
      block &+= 16
    }
    guard end &- start >= 9 else { return nil }
    return entry(bytes, from: start, to: end, base: base)
  }

  /// Whether `entry`'s tag is the `count` bytes at `bytes`.
  @inline(__always)
  private static func holds(
    _ entry: UnsafeMutablePointer<Entry>, _ bytes: UnsafePointer<UInt8>, _ count: Int
  ) -> Bool {
    entry.pointee.tag.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes, count) == 0 }
  }

  /// Remembers the tag `bytes[start..<end]` of element `row` (opened or not), decided against
  /// `base`, and what was written for it (nil: the tag as written).
  func remember(
    _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, row: Int, opens: Bool,
    base: String?, written: UnsafeBufferPointer<UInt8>?
  ) {
    if storage == nil {
      let made = UnsafeMutablePointer<Entry>.allocate(capacity: Self.slotCount)
      made.initialize(repeating: Entry(), count: Self.slotCount)
      storage = made
    }
    if isEmpty || self.base != base {
      if !isEmpty {
        for index in 0..<Self.slotCount { entries[index] = Entry() }
      }
      self.base = base
    }
    isEmpty = false
    // The older of the two slots.
    var slot = Self.slot(bytes, from: start, to: end)
    if entries[slot ^ 1].stamp < entries[slot].stamp { slot ^= 1 }
    clock &+= 1
    entries[slot] = Entry(
      tag: Self.copy(UnsafeBufferPointer(start: bytes + start, count: end &- start)),
      written: written.map { Self.copy($0) }, row: row, opens: opens, stamp: clock)
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
    return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) &>> 56)
  }
}
