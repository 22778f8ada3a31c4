/// Adding to a list that keeps each value once, in document order (tags, keywords, hubs). A
/// scan of the list while it is short; past `scanLimit` entries, a table of the values' hashes,
/// built once and kept beside the list by the record's `NamespaceScope`. A scan for every
/// addition made a hostile item's 20,000 categories take 8.5 s to parse, each one compared with
/// all before it.
///
/// Values are told apart as feedparser tells them apart, by their exact text (Python compares
/// strings code point by code point), byte for byte where they lie in the record: Swift's `==`
/// on strings takes canonically equivalent text for equal, which ran Unicode normalisation for
/// each comparison with a term that is not ASCII and merged tags that feedparser keeps apart.
enum DistinctList {
  /// Longer lists are looked up in their table: a scan of a few dozen short texts costs less
  /// than hashing one.
  static let scanLimit = 32

  /// Appends `text` to the list of texts at `listSlot` unless it holds the same text; false
  /// when it did. Every addition to the list goes through here while `index` is kept, so that
  /// the two stay equal.
  @discardableResult
  static func appendText(
    _ text: UnsafeBufferPointer<UInt8>, toListAt listSlot: Int, in storage: RecordStorage,
    index: inout DistinctIndex?
  ) -> Bool {
    if index == nil {
      if storage.listCount(at: listSlot) < scanLimit {
        var held = false
        storage.forEachValue(ofListAt: listSlot) { value in
          held = storage.holds(text, at: value)
          return !held
        }
        if held { return false }
        storage.setText(text, at: storage.appendEntry(toListAt: listSlot))
        return true
      }
      index = DistinctIndex.ofTexts(listAt: listSlot, in: storage)
    }
    let hash = DistinctIndex.hash(text, nil, nil)
    if index!.values(hash).contains(where: { storage.holds(text, at: $0) }) { return false }
    let value = storage.appendEntry(toListAt: listSlot)
    storage.setText(text, at: value)
    index!.insert(value, hash: hash)
    return true
  }

  /// Appends the tag (`term`, `scheme`, `label`) to the list of tags at `listSlot` unless it
  /// holds one with the same three texts.
  static func appendTag(
    term: UnsafeBufferPointer<UInt8>, scheme: UnsafeBufferPointer<UInt8>?,
    label: UnsafeBufferPointer<UInt8>?, toListAt listSlot: Int, in storage: RecordStorage,
    index: inout DistinctIndex?
  ) {
    func same(_ tag: Int) -> Bool {
      let block = Block<TagFields>(tag)
      return storage.holds(term, at: block.slot(\.term))
        && holds(scheme, at: block.slot(\.scheme), in: storage)
        && holds(label, at: block.slot(\.label), in: storage)
    }
    if index == nil {
      if storage.listCount(at: listSlot) < scanLimit {
        var held = false
        storage.forEachValue(ofListAt: listSlot) { value in
          if let tag = storage.existingObject(at: value) { held = same(tag) }
          return !held
        }
        if held { return }
        _ = appendNewTag(term, scheme, label, listSlot, storage)
        return
      }
      index = DistinctIndex.ofTags(listAt: listSlot, in: storage)
    }
    let hash = DistinctIndex.hash(term, scheme, label)
    if index!.values(hash).contains(where: same) { return }
    index!.insert(appendNewTag(term, scheme, label, listSlot, storage), hash: hash)
  }

  private static func appendNewTag(
    _ term: UnsafeBufferPointer<UInt8>, _ scheme: UnsafeBufferPointer<UInt8>?,
    _ label: UnsafeBufferPointer<UInt8>?, _ listSlot: Int, _ storage: RecordStorage
  ) -> Int {
    let tag = Block<TagFields>(
      storage.appendObject(toListAt: listSlot, count: TagFields.fieldCount))
    storage.setText(tag, \.term, term)
    if let scheme { storage.setText(tag, \.scheme, scheme) }
    if let label { storage.setText(tag, \.label, label) }
    return tag.index
  }

  /// Whether the slot holds `text`, or is empty for nil.
  private static func holds(
    _ text: UnsafeBufferPointer<UInt8>?, at slot: Int, in storage: RecordStorage
  ) -> Bool {
    guard let text else { return storage[slot].kind == .empty }
    return storage.holds(text, at: slot)
  }
}

/// The hashes of a long distinct list's values, each with the slots (of a text) or blocks (of
/// a tag) that hash so; a look-up compares those with the new value byte for byte.
struct DistinctIndex {
  private var slots: [Int: [Int]] = [:]

  func values(_ hash: Int) -> [Int] { slots[hash] ?? [] }

  mutating func insert(_ value: Int, hash: Int) { slots[hash, default: []].append(value) }

  /// A text, or a tag's three parts, hashed exactly (a missing part apart from an empty one).
  static func hash(
    _ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>?,
    _ third: UnsafeBufferPointer<UInt8>?
  ) -> Int {
    var hasher = Hasher()
    func combine(_ part: UnsafeBufferPointer<UInt8>?) {
      hasher.combine(part != nil)
      if let part {
        hasher.combine(bytes: UnsafeRawBufferPointer(part))
        hasher.combine(part.count)
      }
    }
    combine(first)
    combine(second)
    combine(third)
    return hasher.finalize()
  }

  /// The index of the list of texts at `listSlot`.
  static func ofTexts(listAt listSlot: Int, in storage: RecordStorage) -> DistinctIndex {
    var index = DistinctIndex()
    storage.forEachValue(ofListAt: listSlot) { value in
      if let text = storage.text(at: value) { index.insert(value, hash: hash(text, nil, nil)) }
      return true
    }
    return index
  }

  /// The index of the list of tags at `listSlot`.
  static func ofTags(listAt listSlot: Int, in storage: RecordStorage) -> DistinctIndex {
    var index = DistinctIndex()
    storage.forEachValue(ofListAt: listSlot) { value in
      guard let tag = storage.existingObject(at: value) else { return true }
      let block = Block<TagFields>(tag)
      let term = storage.text(at: block.slot(\.term)) ?? UnsafeBufferPointer(start: nil, count: 0)
      index.insert(
        tag,
        hash: hash(
          term, storage.text(at: block.slot(\.scheme)), storage.text(at: block.slot(\.label))))
      return true
    }
    return index
  }
}
