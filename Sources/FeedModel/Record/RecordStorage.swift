/// The one allocation a record's values live in: the UTF-8 of every text (titles, URLs, a
/// summary, a podcast's twenty attribute values) one after another in one byte buffer, and each
/// field a 16-byte slot that says where its text is, or holds its number, date or flag. An
/// object (an `itunes` object, a link, an author) is a block of consecutive slots, one for each
/// row of its table (`RecordSchema`), in the table's order; a list is a chain of such blocks.
///
/// Why: a record of `String`s, arrays and structs cost an allocation for each text longer than
/// fifteen bytes and a retain and a release for every field it was copied or passed through,
/// about 220 reference-count calls and 13 allocations for an item of a plain RSS 2.0 feed and
/// 540 and 33 for a podcast's (callgrind, bench section 7). Here an item is filled by copying
/// bytes, written as JSON from where they lie, and the parser reuses one storage item after
/// item while nobody else holds it: no allocation at all for an item that only goes to the
/// output. `String`s and the typed objects are made only when an embedder reads a field.
///
/// A value type's storage: `FeedItem`, `FeedChannel` and `RecordObject` copy it before a change
/// when it is shared, so a storage that two values can see is never written. Unchecked
/// `Sendable` for that reason: it is written only while it has one owner.
public final class RecordStorage: @unchecked Sendable {
  /// Every text's UTF-8, in the order the values were set; a replaced value's bytes stay until
  /// `compact` drops them.
  @usableFromInline @exclusivity(unchecked) var bytes: UnsafeMutablePointer<UInt8>
  @usableFromInline @exclusivity(unchecked) var byteCount = 0
  @usableFromInline @exclusivity(unchecked) var byteCapacity: Int
  /// The blocks of slots; block 0 is the record's own table.
  @usableFromInline @exclusivity(unchecked) var slots: UnsafeMutablePointer<RecordSlot>
  @usableFromInline @exclusivity(unchecked) var slotCount = 0
  @usableFromInline @exclusivity(unchecked) var slotCapacity: Int
  /// Values the slots do not describe (a GeoJSON geometry, the extension elements), by index.
  @usableFromInline @exclusivity(unchecked) var boxes: [any Sendable] = []
  /// Bytes of replaced texts, which `compact` can give back.
  @usableFromInline @exclusivity(unchecked) var garbage = 0
  /// The number of rows of block 0.
  @usableFromInline let rootCount: Int

  /// An empty record of `rootCount` fields, with room for `bytes` bytes of text.
  @usableFromInline
  package init(rootCount: Int, bytes byteCapacity: Int = 256, slots slotCapacity: Int = 64) {
    self.rootCount = rootCount
    self.byteCapacity = max(byteCapacity, 16)
    self.slotCapacity = max(slotCapacity, rootCount)
    bytes = .allocate(capacity: self.byteCapacity)
    slots = .allocate(capacity: self.slotCapacity)
    slots.initialize(repeating: RecordSlot(), count: rootCount)
    slotCount = rootCount
  }

  deinit {
    bytes.deallocate()
    slots.deallocate()
  }

  /// Empty again, with the same room: the parser's next item, when nobody kept the last one.
  /// Memory stays flat: room grown past `keep` bytes (a megabyte-long item) is given back.
  @inlinable
  package func reset(keep: Int = 1 << 20) {
    if byteCapacity > keep {
      bytes.deallocate()
      byteCapacity = 4096
      bytes = .allocate(capacity: byteCapacity)
    }
    if slotCapacity > keep / 16 {
      slots.deallocate()
      slotCapacity = max(256, rootCount)
      slots = .allocate(capacity: slotCapacity)
    }
    byteCount = 0
    garbage = 0
    slots.update(repeating: RecordSlot(), count: rootCount)
    slotCount = rootCount
    if !boxes.isEmpty { boxes.removeAll(keepingCapacity: true) }
  }

  /// Bytes of text held, garbage included (what the buffer's room follows).
  package var textBytes: Int { byteCount }

  /// A copy that shares nothing with this one, the same size (for a value about to change).
  @usableFromInline package func copy() -> RecordStorage {
    let copy = RecordStorage(rootCount: rootCount, bytes: byteCount, slots: slotCount)
    copy.bytes.update(from: bytes, count: byteCount)
    copy.byteCount = byteCount
    copy.slots.update(from: slots, count: slotCount)
    copy.slotCount = slotCount
    copy.boxes = boxes
    copy.garbage = garbage
    return copy
  }

  // MARK: Slots and blocks

  /// The slot at `index` (a block's first slot plus a row).
  @inlinable
  package subscript(index: Int) -> RecordSlot {
    get { slots[index] }
    set { slots[index] = newValue }
  }

  /// `count` empty slots at the end; the first one's index.
  @inlinable
  package func appendSlots(_ count: Int) -> Int {
    let first = slotCount
    if first &+ count > slotCapacity { growSlots(first &+ count) }
    (slots + first).initialize(repeating: RecordSlot(), count: count)
    slotCount = first &+ count
    return first
  }

  @usableFromInline
  func growSlots(_ needed: Int) {
    let capacity = Swift.max(needed, slotCapacity &* 2)
    let grown = UnsafeMutablePointer<RecordSlot>.allocate(capacity: capacity)
    grown.moveInitialize(from: slots, count: slotCount)
    slots.deallocate()
    slots = grown
    slotCapacity = capacity
  }

  // MARK: Text

  /// Appends `text` to the byte buffer; where it starts. `text` may be bytes of this storage
  /// (a value copied from one field to another): it is found again after the buffer grows.
  /// Inlined, with values of 4 to 16 bytes (types, names, numbers, short URLs) copied by two
  /// overlapping loads: a call here and a `memcpy` call were about 40 instructions a value,
  /// and a podcast item stores some fifty.
  @inlinable @inline(__always)
  package func appendBytes(_ text: UnsafeBufferPointer<UInt8>) -> Int {
    let start = byteCount
    let count = text.count
    guard count > 0, let source = text.baseAddress else { return start }
    guard start &+ count <= byteCapacity else { return appendBytesGrowing(text) }
    // The target is past every byte held, so `source` (even bytes of this storage) cannot
    // overlap it.
    let target = UnsafeMutableRawPointer(bytes + start)
    let raw = UnsafeRawPointer(source)
    if count >= 8 && count <= 16 {
      let head = raw.loadUnaligned(as: UInt64.self)
      let tail = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      target.storeBytes(of: head, as: UInt64.self)
      target.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
    } else if count >= 4 && count < 8 {
      let head = raw.loadUnaligned(as: UInt32.self)
      let tail = raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
      target.storeBytes(of: head, as: UInt32.self)
      target.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
    } else {
      target.copyMemory(from: raw, byteCount: count)
    }
    byteCount = start &+ count
    return start
  }

  /// `appendBytes` when the buffer must grow first.
  @usableFromInline
  func appendBytesGrowing(_ text: UnsafeBufferPointer<UInt8>) -> Int {
    let start = byteCount
    let count = text.count
    guard var source = text.baseAddress else { return start }
    let inside = source >= UnsafePointer(bytes) && source < UnsafePointer(bytes + byteCount)
    let offset = inside ? source - UnsafePointer(bytes) : 0
    growBytes(start &+ count)
    if inside { source = UnsafePointer(bytes + offset) }
    (bytes + start).update(from: source, count: count)
    byteCount = start &+ count
    return start
  }

  /// Room for `count` more bytes at the end, written by `body`, which returns how many it
  /// wrote (at most `count`); where they start.
  @inlinable
  package func appendBytes(
    atMost count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int
  ) -> (start: Int, count: Int) {
    let start = byteCount
    if start &+ count > byteCapacity { growBytes(start &+ count) }
    let written = body(bytes + start)
    byteCount = start &+ written
    return (start, written)
  }

  @usableFromInline
  func growBytes(_ needed: Int) {
    let capacity = Swift.max(needed, byteCapacity &* 2)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    grown.update(from: bytes, count: byteCount)
    bytes.deallocate()
    bytes = grown
    byteCapacity = capacity
  }

  /// The text of a slot that holds one (valid until the storage next changes).
  @inlinable
  package func text(of slot: RecordSlot) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: bytes + slot.textStart, count: slot.textCount)
  }

  /// The text at `index`, nil when the slot holds none.
  @inlinable
  package func text(at index: Int) -> UnsafeBufferPointer<UInt8>? {
    let slot = slots[index]
    guard slot.holdsText else { return nil }
    return text(of: slot)
  }

  /// Sets the slot at `index` to a copy of `text` (kind `.text`, or `.rawDate`); `text` may be
  /// bytes of this storage.
  @inlinable
  package func setText(
    _ text: UnsafeBufferPointer<UInt8>, at index: Int, kind: RecordSlot.Kind = .text
  ) {
    let start = appendBytes(text)
    replace(index, with: RecordSlot(kind: kind, start: start, count: text.count))
  }

  /// Sets the slot at `index` to `text`.
  @usableFromInline package func setText(
    _ text: String, at index: Int, kind: RecordSlot.Kind = .text
  ) {
    var text = text
    text.withUTF8 { setText($0, at: index, kind: kind) }
  }

  /// Sets the slot at `index` to `slot`. The text the slot held is garbage from then on, and
  /// once garbage is most of the buffer (an item that repeats a field a million times) the
  /// texts the slots hold are moved together, so that memory follows what the record holds.
  @inlinable
  package func replace(_ index: Int, with slot: RecordSlot) {
    let old = slots[index]
    slots[index] = slot
    guard old.holdsText else { return }
    garbage &+= old.textCount
    if garbage > 1 << 16 && garbage > byteCount / 2 { compact() }
  }

  /// Moves every text a slot holds to the front of a new buffer; the slots follow. (Slots that
  /// shared one text each get a copy of their own: rare, and bounded by what they hold.)
  @usableFromInline
  func compact() {
    var live = 0
    for index in 0..<slotCount where slots[index].holdsText { live &+= slots[index].textCount }
    let capacity = Swift.max(live &* 2, 256)
    let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    var written = 0
    for index in 0..<slotCount where slots[index].holdsText {
      let slot = slots[index]
      (fresh + written).update(from: bytes + slot.textStart, count: slot.textCount)
      slots[index].textStart = written
      written &+= slot.textCount
    }
    bytes.deallocate()
    bytes = fresh
    byteCapacity = capacity
    byteCount = written
    garbage = 0
  }

  // MARK: Boxed values

  /// Keeps `value` in the slot at `index`.
  @usableFromInline package func setBox(_ value: any Sendable, at index: Int) {
    let slot = slots[index]
    if slot.kind == .box {
      boxes[slot.boxIndex] = value
    } else {
      boxes.append(value)
      replace(index, with: RecordSlot(box: boxes.count - 1))
    }
  }

  /// The value kept in the slot at `index`, nil when it keeps none.
  package func boxes(at index: Int) -> (any Sendable)? {
    let slot = slots[index]
    return slot.kind == .box ? boxes[slot.boxIndex] : nil
  }

  /// The value kept in the slot at `index`, when it holds one of type `Value`.
  @usableFromInline package func box<Value>(at index: Int, as type: Value.Type) -> Value? {
    let slot = slots[index]
    guard slot.kind == .box else { return nil }
    return boxes[slot.boxIndex] as? Value
  }
}
