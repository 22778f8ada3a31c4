/// The types a row can hold, and how each is read out of a slot for an embedder (a `String`
/// made from the bytes, an array from a list) and written into one.

extension String: FieldValue {
  /// Nil for an empty slot.
  public typealias Accessed = String?

  public static func value(_ storage: RecordStorage, at index: Int) -> String? {
    storage.text(at: index).map { String(decoding: $0, as: UTF8.self) }
  }

  public static func store(_ value: String, in storage: RecordStorage, at index: Int) {
    storage.setText(value, at: index)
  }
}

extension Int: FieldValue {
  /// Nil for an empty slot.
  public typealias Accessed = Int?

  public static func value(_ storage: RecordStorage, at index: Int) -> Int? {
    let slot = storage[index]
    return slot.kind == .integer ? Int(truncatingIfNeeded: slot.integer) : nil
  }

  public static func store(_ value: Int, in storage: RecordStorage, at index: Int) {
    storage.set(RecordSlot(integer: Int64(value)), at: index)
  }
}

extension Int64: FieldValue {
  /// Nil for an empty slot.
  public typealias Accessed = Int64?

  public static func value(_ storage: RecordStorage, at index: Int) -> Int64? {
    let slot = storage[index]
    return slot.kind == .integer ? slot.integer : nil
  }

  public static func store(_ value: Int64, in storage: RecordStorage, at index: Int) {
    storage.set(RecordSlot(integer: value), at: index)
  }
}

extension Double: FieldValue {
  /// Nil for an empty slot.
  public typealias Accessed = Double?

  public static func value(_ storage: RecordStorage, at index: Int) -> Double? {
    let slot = storage[index]
    switch slot.kind {
    case .number: return slot.number
    case .integer: return Double(slot.integer)
    default: return nil
    }
  }

  public static func store(_ value: Double, in storage: RecordStorage, at index: Int) {
    storage.set(RecordSlot(number: value), at: index)
  }
}

extension Bool: FieldValue {
  /// Nil for an empty slot.
  public typealias Accessed = Bool?

  public static func value(_ storage: RecordStorage, at index: Int) -> Bool? {
    let slot = storage[index]
    return slot.kind == .flag ? slot.isTrue : nil
  }

  public static func store(_ value: Bool, in storage: RecordStorage, at index: Int) {
    storage.set(RecordSlot(flag: value), at: index)
  }
}

extension FeedDate: FieldValue {
  /// Nil for an empty slot.
  public typealias Accessed = FeedDate?

  public static func value(_ storage: RecordStorage, at index: Int) -> FeedDate? {
    let slot = storage[index]
    switch slot.kind {
    case .instant: return .instant(slot.integer)
    case .rawDate: return .raw(String(decoding: storage.text(of: slot), as: UTF8.self))
    default: return nil
    }
  }

  public static func store(_ value: FeedDate, in storage: RecordStorage, at index: Int) {
    switch value {
    case .instant(let seconds): storage.set(RecordSlot(instant: seconds), at: index)
    case .raw(let text): storage.setText(text, at: index, kind: .rawDate)
    }
  }
}

extension Array: FieldValue where Element: FieldValue {
  /// Empty for an empty slot: a list the feed did not give is an empty list.
  public typealias Accessed = [Element]

  public static var schema: (any RecordSchema.Type)? { Element.schema }

  public static func value(_ storage: RecordStorage, at index: Int) -> [Element]? {
    guard storage[index].kind == .list else { return nil }
    var values: [Element] = []
    values.reserveCapacity(storage.listCount(at: index))
    storage.forEachValue(ofListAt: index) { value in
      if let element = Element.value(storage, at: value) { values.append(element) }
      return true
    }
    return values
  }

  public static func store(_ values: [Element], in storage: RecordStorage, at index: Int) {
    storage.clear(at: index)
    for element in values {
      Element.store(element, in: storage, at: storage.appendEntry(toListAt: index))
    }
  }

  public static func accessed(_ value: [Element]?) -> [Element] { value ?? [] }

  public static func value(of accessed: [Element]) -> [Element]? {
    accessed.isEmpty ? nil : accessed
  }
}

/// A value kept whole beside the slots (a GeoJSON geometry, extension elements): rare, and
/// shaped in ways the rows do not describe. The JSON writer knows each such type.
public protocol BoxedFieldValue: FieldValue, Equatable where Accessed == Self? {}

extension BoxedFieldValue {
  /// The boxed value, when the slot holds one of this type.
  public static func value(_ storage: RecordStorage, at index: Int) -> Self? {
    storage.box(at: index, as: Self.self)
  }

  /// Boxes `value` in the slot.
  public static func store(_ value: Self, in storage: RecordStorage, at index: Int) {
    storage.setBox(value, at: index)
  }
}

extension GeoGeometry: BoxedFieldValue {}
extension FeedExtensions: BoxedFieldValue {}

extension RecordStorage {
  /// Empties the slot at `index`.
  @inlinable
  package func clear(at index: Int) {
    replace(index, with: RecordSlot())
  }

  /// Sets the slot at `index` to `slot`.
  @inlinable
  package func set(_ slot: RecordSlot, at index: Int) {
    replace(index, with: slot)
  }
}
