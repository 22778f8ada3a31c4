#if canImport(Glibc)
  import Glibc
#endif

/// The JSON writer's byte buffer: appending is a capacity check and a copy. With an `Array`,
/// every append paid a uniqueness check and, for runs, the generic sequence copy (about 70
/// instructions a call), and JSON text is appended in runs between escapes: HTML content
/// (quotes, line breaks) escapes every few dozen bytes. Noncopyable, so that the storage has
/// exactly one owner and is freed once.
struct OutputBytes: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private(set) var count = 0

  init() {
    capacity = 1 << 12
    base = Self.reallocate(nil, capacity: capacity)
  }

  deinit { free(base) }

  var isEmpty: Bool { count == 0 }

  /// Empties the buffer; a buffer grown past 1 MiB by one huge record gives the memory back.
  mutating func removeAll() {
    count = 0
    if capacity > 1 << 20 {
      capacity = 1 << 12
      base = Self.reallocate(base, capacity: capacity)
    }
  }

  /// Drops what was written from `newCount` on (a field or object left out after all).
  mutating func removeLast(from newCount: Int) {
    precondition(newCount >= 0 && newCount <= count)
    count = newCount
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if count == capacity { grow(to: count + 1) }
    base[count] = byte
    count += 1
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    let end = count + bytes.count
    if end > capacity { grow(to: end) }
    (base + count).update(from: source, count: bytes.count)
    count = end
  }

  /// Room for `maximum` bytes, written by `body`, which returns how many it wrote.
  @inline(__always)
  mutating func append(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
    if count + maximum > capacity { grow(to: count + maximum) }
    let written = body(base + count)
    precondition(written <= maximum)
    count += written
  }

  func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    body(UnsafeRawBufferPointer(start: base, count: count))
  }

  var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

  private mutating func grow(to minimum: Int) {
    capacity = Swift.max(minimum, capacity * 2)
    base = Self.reallocate(base, capacity: capacity)
  }

  /// `realloc`: a large buffer grows in place or by remapping its pages, without the moment
  /// where the old and the new copy of a 50 MB record both exist.
  private static func reallocate(
    _ pointer: UnsafeMutablePointer<UInt8>?, capacity: Int
  ) -> UnsafeMutablePointer<UInt8> {
    guard let grown = realloc(pointer, capacity) else {
      fatalError("out of memory growing the output buffer to \(capacity) bytes")
    }
    return grown.assumingMemoryBound(to: UInt8.self)
  }
}
