/// Adding to a list that keeps each value once, in document order (tags, keywords, hubs). A
/// scan of the list while it is short; past `scanLimit` entries, a hash set of its values,
/// built once and kept beside the list by the record's `NamespaceScope`. A scan for every
/// addition made a hostile item's 20,000 categories take 8.5 s to parse, each one compared with
/// all before it.
enum DistinctList {
  /// Longer lists are looked up in their set: a scan of a few dozen short strings costs less
  /// than hashing one.
  static let scanLimit = 32

  /// Appends `value` to `list` unless the list holds an equal one. `index` is nil while the
  /// list is short, and then its values; every addition to `list` goes through here, so that
  /// the two stay equal.
  @inline(__always)
  static func append<Value: Hashable>(
    _ value: Value, to list: inout [Value], index: inout Set<Value>?
  ) {
    if index == nil {
      if list.count < scanLimit {
        if !list.contains(value) { list.append(value) }
        return
      }
      index = Set(list)
    }
    if index!.insert(value).inserted { list.append(value) }
  }

  /// Appends each of `values` that `list` does not hold yet. A short first list without a
  /// repeat is taken as it came (one array: appended a value at a time, three values were three
  /// allocations).
  @inline(__always)
  static func append<Value: Hashable>(
    contentsOf values: [Value], to list: inout [Value], index: inout Set<Value>?
  ) {
    if list.isEmpty && values.count <= scanLimit
      && !values.indices.contains(where: { values[..<$0].contains(values[$0]) })
    {
      list = values
      return
    }
    for value in values { append(value, to: &list, index: &index) }
  }
}
