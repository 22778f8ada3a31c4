/// An object of the output (an `itunes` object, a link, an author) as an embedder sees it: its
/// fields are its table's rows (`Schema`), read and set by name, each made into its Swift type
/// when read:
///
/// ```swift
/// if let itunes = item.itunes { print(itunes.duration ?? 0, itunes.keywords) }
/// var person = FeedPerson()
/// person.name = "Alice"
/// ```
///
/// A value: it reads the record it came from without copying it, and copies itself out of it
/// before its first change.
@dynamicMemberLookup
public struct RecordObject<Schema: RecordSchema>: Sendable, Hashable, FieldValue {
  /// The storage the object's block is in (shared with its record until either changes).
  @usableFromInline var storage: RecordStorage
  /// Its block's first slot.
  @usableFromInline var block: Int

  /// An object with no fields set.
  public init() {
    storage = RecordStorage(rootCount: Schema.fieldCount)
    block = 0
  }

  @usableFromInline
  init(storage: RecordStorage, block: Int) {
    self.storage = storage
    self.block = block
  }

  /// The field `field` of this object: `Value?` for one value, `[Element]` for a list.
  @inlinable
  public subscript<Value>(dynamicMember field: KeyPath<Schema, Field<Value>>) -> Value.Accessed {
    get { Value.read(storage, at: block + Schema.row(field)) }
    set {
      makeUnique()
      Value.write(newValue, to: storage, at: block + Schema.row(field))
    }
  }

  /// True when no field is set: writers leave the object out.
  public var isEmpty: Bool {
    (0..<Schema.fieldCount).allSatisfy { storage[block + $0].kind == .empty }
  }

  /// A storage of its own before a change, when the record it came from shares this one.
  @usableFromInline
  mutating func makeUnique() {
    guard !isKnownUniquelyReferenced(&storage) else { return }
    let own = RecordStorage(rootCount: Schema.fieldCount)
    for row in 0..<Schema.fieldCount {
      own.copyValue(from: storage, at: block + row, to: row)
    }
    storage = own
    block = 0
  }

  // MARK: Equatable, Hashable

  /// Equal when every field is (texts byte for byte).
  public static func == (lhs: RecordObject, rhs: RecordObject) -> Bool {
    RecordStorage.equalBlocks(
      lhs.storage, lhs.block, rhs.storage, rhs.block, count: Schema.fieldCount)
  }

  /// Hashes every field, as `==` compares them.
  public func hash(into hasher: inout Hasher) {
    for row in 0..<Schema.fieldCount { storage.hash(at: block + row, into: &hasher) }
  }

  // MARK: FieldValue

  /// An object's rows.
  public static var schema: (any RecordSchema.Type)? { Schema.self }

  /// Nil for an empty slot.
  public typealias Accessed = RecordObject?

  /// The object in the slot at `index`, reading the storage in place.
  public static func value(_ storage: RecordStorage, at index: Int) -> RecordObject? {
    storage.existingObject(at: index).map { RecordObject(storage: storage, block: $0) }
  }

  /// A copy of `value`'s fields, in a new block of `storage`.
  public static func store(_ value: RecordObject, in storage: RecordStorage, at index: Int) {
    storage.clear(at: index)
    let block = storage.object(at: index, count: Schema.fieldCount)
    for row in 0..<Schema.fieldCount {
      storage.copyValue(from: value.storage, at: value.block + row, to: block + row)
    }
  }
}
