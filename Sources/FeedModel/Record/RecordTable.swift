import Synchronization

/// A schema's rows as data, for the code that goes through every field (the JSON Lines writer,
/// the test that holds the rows to docs/format.md): each row's JSON key, options and, for an
/// object or a list of objects, its table. Read once per schema from the schema's instance (its
/// stored properties, in declaration order, are its rows).
///
/// Unchecked `Sendable`: every property is set once, in `init`, and only read after.
public final class RecordTable: @unchecked Sendable {
  /// One row.
  public struct Row: Sendable {
    /// The JSON key (`new_feed_url`).
    public let key: String
    /// The key as the JSON writer writes it, quoted, with its colon: `"new_feed_url":`.
    public let quotedKey: [UInt8]
    /// The same for a date's text when it could not be read (`"published_raw":`).
    public let quotedRawKey: [UInt8]
    /// What the writers do beyond writing the value.
    public let options: FieldOptions
    /// The table of an object row, or of a list of objects' entries; nil otherwise.
    public let table: RecordTable?
  }

  /// The rows, in the schema's (and the output's) order.
  public let rows: [Row]
  /// The schema's name, for messages.
  public let name: String
  /// The rows as the JSON writer reads them, a record at a time: plain values, the keys'
  /// bytes and the nested tables by address, so that going through them retains nothing.
  /// Never freed: a table lives as long as the process (`of` keeps each one).
  package let packed: UnsafeBufferPointer<PackedRow>

  private init(name: String, rows: [Row]) {
    self.name = name
    self.rows = rows
    let packed = UnsafeMutableBufferPointer<PackedRow>.allocate(capacity: rows.count)
    for (index, row) in rows.enumerated() {
      packed.initializeElement(
        at: index,
        to: PackedRow(
          quotedKey: Self.immortal(row.quotedKey), quotedRawKey: Self.immortal(row.quotedRawKey),
          options: row.options,
          rows: row.table?.packed ?? UnsafeBufferPointer(start: nil, count: 0)))
    }
    self.packed = UnsafeBufferPointer(packed)
  }

  /// A copy of `bytes` that is never freed, laid out for `PackedRow.quotedKey`: a comma
  /// before it, and room after it for whole eight-byte words to be read.
  private static func immortal(_ bytes: [UInt8]) -> UnsafeBufferPointer<UInt8> {
    let room = (1 &+ bytes.count &+ 7) & ~7 &+ 8
    let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: room)
    copy.initialize(repeating: 0, count: room)
    copy[0] = UInt8(ascii: ",")
    for (index, byte) in bytes.enumerated() { copy[1 &+ index] = byte }
    return UnsafeBufferPointer(start: copy + 1, count: bytes.count)
  }

  /// One row as the JSON writer reads it.
  package struct PackedRow: @unchecked Sendable {
    /// `"key":`. The byte before it is a comma and the memory after it can be read up to the
    /// next eight-byte word past its end, so that the writer copies `,"key":` or `"key":` in
    /// whole words (a byte loop with the vector code the compiler made of it was about 60
    /// instructions a key, and a podcast item has some seventy keys).
    package let quotedKey: UnsafeBufferPointer<UInt8>
    /// `"key_raw":`, for a date kept as its text; laid out as `quotedKey` is.
    package let quotedRawKey: UnsafeBufferPointer<UInt8>
    /// What the writers do beyond writing the value.
    package let options: FieldOptions
    /// The rows of an object's or a list's objects' table (empty for other values); kept
    /// alive, with their table, by `RecordTable.of`'s cache.
    package let rows: UnsafeBufferPointer<PackedRow>
  }

  /// The table of `schema`, read once and kept.
  public static func of(_ schema: any RecordSchema.Type) -> RecordTable {
    let id = ObjectIdentifier(schema)
    if let known = cache.withLock({ $0[id] }) { return known }
    let table = read(schema)
    return cache.withLock { tables in
      if let known = tables[id] { return known }
      tables[id] = table
      return table
    }
  }

  private static let cache = Mutex<[ObjectIdentifier: RecordTable]>([:])

  private static func read(_ schema: any RecordSchema.Type) -> RecordTable {
    let rows = fieldRows(schema).map { row in
      let key = row.key.description
      return Row(
        key: key, quotedKey: Array("\"\(key)\":".utf8),
        quotedRawKey: Array("\"\(key)_raw\":".utf8), options: row.options,
        table: row.schema.map(of))
    }
    return RecordTable(name: _typeName(schema, qualified: false), rows: rows)
  }

  /// The rows of `schema`, read from its instance's memory: its stored properties are all
  /// `Field`s, each one `FieldRow`. (Runtime reflection would do the same, but its first use
  /// scans every protocol conformance of the binary: tens of millions of instructions in a
  /// build that links Foundation in.)
  public static func fieldRows<Schema: RecordSchema>(_ schema: Schema.Type) -> [FieldRow] {
    let instance = Schema()
    return withUnsafeBytes(of: instance) { bytes in
      (0..<Schema.fieldCount).map {
        bytes.load(fromByteOffset: $0 * fieldStride, as: FieldRow.self)
      }
    }
  }
}
