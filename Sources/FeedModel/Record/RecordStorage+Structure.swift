#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Objects and lists inside a storage: an object is a block of slots, a list a chain of
/// entries (a header slot and one value slot each), all in the one slot buffer. Also what a
/// value type needs of them: a deep copy into another storage, and equality.
extension RecordStorage {
  /// The block of the object in the slot at `index`, made (with `count` empty rows) when the
  /// slot holds none.
  /// Inlined up to the test: a reader asks for its namespace's object at every element (a
  /// call each, 16,000 in a 5 MB podcast feed), and it exists but for the first.
  @inlinable @inline(__always)
  package func object(at index: Int, count: Int) -> Int {
    let slot = slots[index]
    if slot.kind == .object { return slot.block }
    return newObject(at: index, count: count)
  }

  /// `object(at:count:)` when the slot holds none yet.
  @usableFromInline
  func newObject(at index: Int, count: Int) -> Int {
    let block = appendSlots(count)
    replace(index, with: RecordSlot(object: block, count: count))
    return block
  }

  /// The block of the object in the slot at `index`, nil when it holds none.
  @inlinable
  package func existingObject(at index: Int) -> Int? {
    let slot = slots[index]
    return slot.kind == .object ? slot.block : nil
  }

  /// A new entry at the end of the list in the slot at `index`; the index of its value slot.
  @inlinable
  package func appendEntry(toListAt index: Int) -> Int {
    let entry = appendSlots(2)
    slots[entry] = RecordSlot(kind: .entry, word: 0, count: 1)
    var list = slots[index]
    if list.kind == .list {
      slots[list.lastEntry].word = UInt64(entry)
      list.word = (list.word & 0xFFFF_FFFF) | UInt64(entry) << 32
      list.count &+= 1
    } else {
      list = RecordSlot(kind: .list, word: UInt64(entry) | UInt64(entry) << 32, count: 1)
    }
    slots[index] = list
    return entry &+ 1
  }

  /// A new object at the end of the list in the slot at `index`, with `count` empty rows; its
  /// block.
  @inlinable
  package func appendObject(toListAt index: Int, count: Int) -> Int {
    let value = appendEntry(toListAt: index)
    let block = appendSlots(count)
    slots[value] = RecordSlot(object: block, count: count)
    return block
  }

  /// How many entries the list in the slot at `index` has.
  @inlinable
  package func listCount(at index: Int) -> Int {
    let slot = slots[index]
    return slot.kind == .list ? Int(slot.count) : 0
  }

  /// The value slot of the list's last entry, nil when it is empty.
  @inlinable
  package func lastValue(ofListAt index: Int) -> Int? {
    let slot = slots[index]
    return slot.kind == .list ? slot.lastEntry &+ 1 : nil
  }

  /// Calls `body` with the value slot of each entry of the list at `index`, in order, until it
  /// answers false.
  @inlinable
  package func forEachValue(ofListAt index: Int, _ body: (Int) -> Bool) {
    let slot = slots[index]
    guard slot.kind == .list else { return }
    var entry = slot.firstEntry
    while entry != 0 {
      guard body(entry &+ 1) else { return }
      entry = slots[entry].nextEntry
    }
  }

  /// Drops the list's last entry (its slots stay, unreachable).
  @usableFromInline package func removeLastEntry(ofListAt index: Int) {
    var list = slots[index]
    guard list.kind == .list else { return }
    if list.count == 1 {
      replace(index, with: RecordSlot())
      return
    }
    var entry = list.firstEntry
    while slots[entry].nextEntry != list.lastEntry { entry = slots[entry].nextEntry }
    slots[entry].word = 0
    list.word = (list.word & 0xFFFF_FFFF) | UInt64(entry) << 32
    list.count -= 1
    slots[index] = list
  }

  /// Whether two slots hold the same text (both texts, byte for byte).
  @inlinable
  package func sameText(_ a: RecordSlot, _ b: RecordSlot) -> Bool {
    guard a.holdsText, b.holdsText, a.textCount == b.textCount else { return false }
    return memcmp(bytes + a.textStart, bytes + b.textStart, a.textCount) == 0
  }

  /// Whether the slot at `index` holds `text`, byte for byte.
  @inlinable
  package func holds(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    let slot = slots[index]
    guard slot.holdsText, slot.textCount == text.count else { return false }
    return text.count == 0 || memcmp(bytes + slot.textStart, text.baseAddress!, text.count) == 0
  }

  // MARK: Copies and comparisons across storages

  /// Sets the slot at `index` to a copy of the value in `source`'s slot at `sourceIndex`,
  /// objects and lists included.
  @usableFromInline package func copyValue(
    from source: RecordStorage, at sourceIndex: Int, to index: Int
  ) {
    let slot = source.slots[sourceIndex]
    switch slot.kind {
    case .text, .rawDate:
      if source === self {
        // Texts never change once written: a copy within one storage shares the bytes.
        replace(index, with: slots[sourceIndex])
      } else {
        setText(source.text(of: slot), at: index, kind: slot.kind)
      }
    case .object:
      let count = Int(slot.count)
      let block = appendSlots(count)
      replace(index, with: RecordSlot(object: block, count: count))
      for row in 0..<count { copyValue(from: source, at: slot.block + row, to: block + row) }
    case .list:
      replace(index, with: RecordSlot())
      source.forEachValue(ofListAt: sourceIndex) { value in
        let copy = appendEntry(toListAt: index)
        copyValue(from: source, at: value, to: copy)
        return true
      }
    case .box:
      setBox(source.boxes[slot.boxIndex], at: index)
    case .empty, .integer, .number, .flag, .instant, .entry:
      replace(index, with: slot)
    }
  }

  /// Whether `a`'s slot at `aIndex` and `b`'s at `bIndex` hold equal values: texts byte for
  /// byte, objects row by row, lists entry by entry.
  @usableFromInline package static func equal(
    _ a: RecordStorage, _ aIndex: Int, _ b: RecordStorage, _ bIndex: Int
  ) -> Bool {
    let x = a.slots[aIndex]
    let y = b.slots[bIndex]
    guard x.kind == y.kind else { return false }
    switch x.kind {
    case .empty: return true
    case .text, .rawDate:
      return x.textCount == y.textCount
        && (x.textCount == 0
          || memcmp(a.bytes + x.textStart, b.bytes + y.textStart, x.textCount) == 0)
    case .integer, .number, .instant: return x.word == y.word
    case .flag: return x.flag == y.flag
    case .object:
      return x.count == y.count
        && (0..<Int(x.count)).allSatisfy { equal(a, x.block + $0, b, y.block + $0) }
    case .list:
      guard x.count == y.count else { return false }
      var left = x.firstEntry
      var right = y.firstEntry
      while left != 0 {
        guard equal(a, left + 1, b, right + 1) else { return false }
        left = a.slots[left].nextEntry
        right = b.slots[right].nextEntry
      }
      return true
    case .box:
      return boxesEqual(a.boxes[x.boxIndex], b.boxes[y.boxIndex])
    case .entry:
      return true
    }
  }

  /// Equal rows `0..<count` of two blocks.
  @usableFromInline package static func equalBlocks(
    _ a: RecordStorage, _ aBlock: Int, _ b: RecordStorage, _ bBlock: Int, count: Int
  ) -> Bool {
    (0..<count).allSatisfy { equal(a, aBlock + $0, b, bBlock + $0) }
  }

  /// Feeds the value in the slot at `index` to `hasher`, as `equal` compares it.
  @usableFromInline package func hash(at index: Int, into hasher: inout Hasher) {
    let slot = slots[index]
    hasher.combine(slot.kind.rawValue)
    switch slot.kind {
    case .text, .rawDate:
      hasher.combine(bytes: UnsafeRawBufferPointer(text(of: slot)))
      hasher.combine(slot.textCount)
    case .integer, .number, .instant: hasher.combine(slot.word)
    case .flag: hasher.combine(slot.flag)
    case .object:
      for row in 0..<Int(slot.count) { hash(at: slot.block + row, into: &hasher) }
    case .list:
      forEachValue(ofListAt: index) { value in
        hash(at: value, into: &hasher)
        return true
      }
    case .empty, .entry, .box: break
    }
  }

  private static func boxesEqual(_ a: any Sendable, _ b: any Sendable) -> Bool {
    guard let a = a as? any Equatable else { return false }
    return isEqual(a, b)
  }

  private static func isEqual<Value: Equatable>(_ a: Value, _ b: any Sendable) -> Bool {
    (b as? Value) == a
  }
}
