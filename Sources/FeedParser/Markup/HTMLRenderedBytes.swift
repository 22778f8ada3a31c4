#if canImport(Glibc)
  import Glibc
#endif

/// The text renderer's output: plain memory that grows as a text needs and is reused from text
/// to text. An array appended to a run and a byte at a time cost a uniqueness check and a call
/// at every append (about 110 instructions a run of prose, 17,756 runs in the generated 5 MB
/// RSS 2.0 file); here a run is one `memcpy`, a byte one store.
///
/// The bytes go out lent (`withBytes`) or copied by `memcpy` (`array`): `Array(buffer)` would
/// specialize the standard library's element-by-element copy for byte buffers, which every
/// `append(contentsOf:)` of a buffer in the module then calls. Not thread-safe.
final class HTMLRenderedBytes {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// How many bytes are written.
  private(set) var count = 0

  init() {
    capacity = 256
    base = .allocate(capacity: capacity)
  }

  deinit { base.deallocate() }

  var isEmpty: Bool {
    @inline(__always) get { count == 0 }
  }

  /// Forgets the bytes written and makes room for `expected` bytes.
  @inline(__always)
  func reset(expecting expected: Int) {
    count = 0
    if capacity < expected { grow(to: expected) }
  }

  @inline(__always)
  func append(_ byte: UInt8) {
    if count == capacity { grow(to: capacity &* 2) }
    base[count] = byte
    count &+= 1
  }

  @inline(__always)
  func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    let needed = count &+ bytes.count
    if needed > capacity { grow(to: max(needed, capacity &* 2)) }
    if let source = bytes.baseAddress, bytes.count > 0 {
      memcpy(base + count, source, bytes.count)
    }
    count = needed
  }

  /// The bytes written, lent to `body`.
  @inline(__always)
  func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    body(UnsafeBufferPointer(start: base, count: count))
  }

  /// The bytes written, copied into an array.
  func array() -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      if count > 0 { memcpy(buffer.baseAddress!, base, count) }
      initialized = count
    }
  }

  /// Room for `wanted` bytes, the bytes written kept.
  @inline(never)
  private func grow(to wanted: Int) {
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: wanted)
    if count > 0 { larger.moveInitialize(from: base, count: count) }
    base.deallocate()
    base = larger
    capacity = wanted
  }
}
