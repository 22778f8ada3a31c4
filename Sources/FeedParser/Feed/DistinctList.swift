/// Adding to a list that keeps each value once, in document order (tags, keywords, hubs). A
/// scan of the list while it is short; past `scanLimit` entries, a hash set of its values,
/// built once and kept beside the list by the record's `NamespaceScope`. A scan for every
/// addition made a hostile item's 20,000 categories take 8.5 s to parse, each one compared with
/// all before it.
///
/// Values are told apart as feedparser tells them apart, by their exact text (Python compares
/// strings code point by code point), not by Swift's `==` on strings, which takes canonically
/// equivalent text for equal: that ran Unicode normalisation for each comparison with a term
/// that is not ASCII (a podcast's Japanese categories and keywords, about 400 instructions a
/// comparison), and merged tags that feedparser keeps apart.
enum DistinctList {
  /// Longer lists are looked up in their set: a scan of a few dozen short strings costs less
  /// than hashing one.
  static let scanLimit = 32

  /// Appends `value` to `list` unless the list holds one with the same text. `index` is nil
  /// while the list is short, and then its values; every addition to `list` goes through
  /// here, so that the two stay equal.
  @inline(__always)
  static func append<Value: ExactValue>(
    _ value: Value, to list: inout [Value], index: inout Set<ExactKey<Value>>?
  ) {
    if index == nil {
      if list.count < scanLimit {
        if !holds(list[...], value) { list.append(value) }
        return
      }
      index = Set(list.map { ExactKey($0) })
    }
    if index!.insert(ExactKey(value)).inserted { list.append(value) }
  }

  /// Appends each of `values` that `list` does not hold yet. A short first list without a
  /// repeat is taken as it came (one array: appended a value at a time, three values were three
  /// allocations).
  @inline(__always)
  static func append<Value: ExactValue>(
    contentsOf values: [Value], to list: inout [Value], index: inout Set<ExactKey<Value>>?
  ) {
    if list.isEmpty && values.count <= scanLimit
      && !values.indices.contains(where: { holds(values[..<$0], values[$0]) })
    {
      list = values
      return
    }
    for value in values { append(value, to: &list, index: &index) }
  }

  /// Whether `list` holds a value with the same text as `value`. Through the list's buffer,
  /// each entry compared where it lies: a `contains(where:)` closure was handed a copy of
  /// each entry (a retain and a release of each of its strings).
  @inline(__always)
  private static func holds<Value: ExactValue>(_ list: ArraySlice<Value>, _ value: Value) -> Bool {
    list.withUnsafeBufferPointer { entries in
      guard let first = entries.baseAddress else { return false }
      for offset in 0..<entries.count where Value.isExactly(first + offset, value) {
        return true
      }
      return false
    }
  }
}

/// A value a distinct list compares by its exact text (see `DistinctList`).
protocol ExactValue {
  /// Whether the value at `stored` has the same text as `value`, reading `stored` in place.
  static func isExactly(_ stored: UnsafePointer<Self>, _ value: Self) -> Bool
  /// Hashes the text, for the set of a long list.
  func hashExactly(into hasher: inout Hasher)
}

/// A value in a distinct list's set, hashed and compared by its exact text.
struct ExactKey<Value: ExactValue>: Hashable {
  let value: Value

  init(_ value: Value) { self.value = value }

  static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
    withUnsafePointer(to: lhs.value) { Value.isExactly($0, rhs.value) }
  }

  func hash(into hasher: inout Hasher) { value.hashExactly(into: &hasher) }
}

extension String: ExactValue {
  static func isExactly(_ stored: UnsafePointer<String>, _ value: String) -> Bool {
    // Lengths first: they differ for most pairs, and reading one copies nothing.
    guard stored.pointee.utf8.count == value.utf8.count else { return false }
    return sameBytes(stored.pointee, value)
  }

  func hashExactly(into hasher: inout Hasher) {
    let hashed: Void? = utf8.withContiguousStorageIfAvailable {
      hasher.combine(bytes: UnsafeRawBufferPointer($0))
    }
    if hashed == nil { for byte in utf8 { hasher.combine(byte) } }
    hasher.combine(utf8.count)
  }

  /// The same UTF-8 bytes (`a` and `b` of one length).
  fileprivate static func sameBytes(_ a: String, _ b: String) -> Bool {
    let same: Bool?? = a.utf8.withContiguousStorageIfAvailable { mine in
      b.utf8.withContiguousStorageIfAvailable { theirs in
        mine.elementsEqual(theirs)
      }
    }
    return (same ?? nil) ?? a.utf8.elementsEqual(b.utf8)
  }
}

extension FeedTag: ExactValue {
  /// The scheme first: an item's tags mostly differ there (plain categories and iTunes
  /// keywords) or share one string; then the lengths, then the bytes.
  static func isExactly(_ stored: UnsafePointer<FeedTag>, _ value: FeedTag) -> Bool {
    guard sameLength(stored.pointee.scheme, value.scheme),
      sameLength(stored.pointee.label, value.label),
      stored.pointee.term.utf8.count == value.term.utf8.count
    else { return false }
    return sameText(stored.pointee.scheme, value.scheme)
      && sameText(stored.pointee.label, value.label)
      && String.sameBytes(stored.pointee.term, value.term)
  }

  func hashExactly(into hasher: inout Hasher) {
    term.hashExactly(into: &hasher)
    hasher.combine(scheme != nil)
    scheme?.hashExactly(into: &hasher)
    hasher.combine(label != nil)
    label?.hashExactly(into: &hasher)
  }

  @inline(__always)
  private static func sameLength(_ a: String?, _ b: String?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let a?, let b?): return a.utf8.count == b.utf8.count
    default: return false
    }
  }

  @inline(__always)
  private static func sameText(_ a: String?, _ b: String?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return String.sameBytes(a, b)
  }
}
