/// The table of one kind of object in the output: an item, a feed, an `itunes` object, a link.
/// Each row is a stored property of type `Field`, declared once, in the order the JSON Lines
/// output writes the fields (docs/format.md):
///
/// ```swift
/// public struct YouTubeFields: RecordSchema {
///   public let videoID = Field<String>("video_id")
///   public let channelID = Field<String>("channel_id")
///   public init() {}
/// }
/// ```
///
/// That row is all there is to a field: the parser fills it (`RecordStorage` writes by key
/// path), the JSON writer and `Encodable` write it (`RecordTable` reads the rows), embedders read
/// it typed (`item.youtube?.videoID`, through `@dynamicMemberLookup`), and a test holds the
/// rows to docs/format.md. A row's number is its place in the struct: a key path's offset
/// divided by a row's size, which the compiler folds into a constant, so that setting a field
/// by key path costs what setting it by index costs. A schema has no stored property but its
/// rows (a test checks each one).
public protocol RecordSchema: Sendable {
  /// The table's one instance (its rows carry only keys and options).
  init()
}

extension RecordSchema {
  /// How many rows the table has.
  @inlinable
  public static var fieldCount: Int {
    (MemoryLayout<Self>.size &+ fieldStride &- 1) / fieldStride
  }

  /// The row number of `field`: its slot in a block of this table.
  @inlinable
  public static func row<Value>(_ field: KeyPath<Self, Field<Value>>) -> Int {
    MemoryLayout<Self>.offset(of: field)! / fieldStride
  }
}

/// Every `Field` has this size, whatever its value's type: rows are numbered by offset.
@usableFromInline let fieldStride = MemoryLayout<Field<String>>.stride

/// What a row asks of the writers beyond its value.
public struct FieldOptions: OptionSet, Sendable {
  /// The row's raw value.
  public let rawValue: UInt8
  /// A row from its raw value.
  @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
  // Computed and inlinable rather than stored: another module read a stored `static let`
  // through its addressor, a call for every row the JSON writer wrote.
  /// A flag written only when true (`expired`, `extensions_truncated`).
  @inlinable public static var onlyWhenTrue: FieldOptions { FieldOptions(rawValue: 1) }
  /// The MIME type of the row before it (`title_type`): written only when that row is.
  @inlinable public static var typeOfPrevious: FieldOptions { FieldOptions(rawValue: 2) }
  /// A date whose text is not kept when it cannot be read (no `*_raw` field).
  @inlinable public static var noRawDate: FieldOptions { FieldOptions(rawValue: 4) }
}

/// One row of a `RecordSchema`: a field of the output, of type `Value`, under the JSON key
/// `key`.
public struct Field<Value: FieldValue>: Sendable {
  /// What the table knows of the row; the same layout for every `Value`, so that a schema's
  /// rows can be read as an array of these (`RecordTable`).
  public let row: FieldRow

  /// A row written under `key`.
  public init(_ key: StaticString, _ options: FieldOptions = []) {
    row = FieldRow(key: key, options: options, schema: Value.schema)
  }
}

/// A row as data: its key, its options, and the table of an object (or of a list's objects).
public struct FieldRow: Sendable {
  /// The JSON key.
  public let key: StaticString
  /// What the writers do beyond writing the value.
  public let options: FieldOptions
  /// The table of an object or of a list's objects; nil for other values.
  public let schema: (any RecordSchema.Type)?
}

/// A type a row can hold: how it is read out of a slot for an embedder and written into one.
/// The writers do not need these: a slot says what it holds.
public protocol FieldValue: Sendable {
  /// What an embedder reads: `Self?` for a single value, the array itself for a list (empty
  /// when the feed gave none).
  associatedtype Accessed
  /// The table of an object (or of a list's objects); nil for other values.
  static var schema: (any RecordSchema.Type)? { get }
  /// The value in the slot at `index`; nil when the slot holds none.
  static func value(_ storage: RecordStorage, at index: Int) -> Self?
  /// Sets the slot at `index` (of a storage with one owner) to `value`.
  static func store(_ value: Self, in storage: RecordStorage, at index: Int)
  /// What an embedder reads for a value or its absence.
  static func accessed(_ value: Self?) -> Accessed
  /// The value an embedder's `accessed` stands for; nil for none.
  static func value(of accessed: Accessed) -> Self?
}

extension FieldValue {
  /// No table, unless the type is an object or a list of them.
  public static var schema: (any RecordSchema.Type)? { nil }

  /// The slot at `index` as an embedder reads it.
  @inlinable
  public static func read(_ storage: RecordStorage, at index: Int) -> Accessed {
    accessed(value(storage, at: index))
  }

  /// Sets the slot at `index` to what an embedder gave (emptied for none).
  @inlinable
  public static func write(_ accessed: Accessed, to storage: RecordStorage, at index: Int) {
    if let value = value(of: accessed) {
      store(value, in: storage, at: index)
    } else {
      storage.clear(at: index)
    }
  }
}

extension FieldValue where Accessed == Self? {
  /// A single value reads as an optional.
  @inlinable
  public static func accessed(_ value: Self?) -> Self? { value }
  /// A single value reads as an optional.
  @inlinable
  public static func value(of accessed: Self?) -> Self? { accessed }
}
