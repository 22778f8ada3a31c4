import FeedParser

/// A record's table rows as JSON, written from where the values lie in its storage: each row in
/// its table's order, under its key, the text escaped straight from the storage's bytes. No
/// field is named here: a row added to a table (`ItemFields`, `ITunesFields`, …) is written with
/// no change to this file. A slot says what it holds, so the writer needs of the table only its
/// keys, its options and its nested tables (`RecordTable.PackedRow`).
extension JSONLineBuffer {
  /// Writes the rows of `table` from the block at `block` of `storage`, each value that is set
  /// (docs/format.md: nothing empty is written).
  mutating func writeRows(_ table: RecordTable, of storage: RecordStorage, block: Int) {
    writeRows(table.packed, of: storage, block: block)
  }

  /// `writeRows` by the table's rows, which the nested objects reach without a reference
  /// count.
  private mutating func writeRows(
    _ rows: UnsafeBufferPointer<RecordTable.PackedRow>, of storage: RecordStorage, block: Int
  ) {
    var previousWritten = false
    var index = 0
    // The row is read only for a slot that holds a value: most rows of a namespace's table are
    // empty, and a copy of each row was most of the loop.
    while index < rows.count {
      let slot = storage[block &+ index]
      index &+= 1
      if slot.kind == .empty {
        previousWritten = false
        continue
      }
      let row = rows.baseAddress! + (index &- 1)
      if row.pointee.options.contains(.typeOfPrevious) && !previousWritten { continue }
      previousWritten = writeRow(row, slot, storage, at: block &+ index &- 1)
    }
  }

  /// One row's key and value; false when nothing was written (an empty text, object or list).
  /// The row by address: passed by value, its 56 bytes were copied to the stack for each call.
  private mutating func writeRow(
    _ row: UnsafePointer<RecordTable.PackedRow>, _ slot: RecordSlot, _ storage: RecordStorage,
    at index: Int
  ) -> Bool {
    switch slot.kind {
    case .text:
      let text = storage.text(of: slot)
      guard !text.isEmpty else { return false }
      appendQuotedKey(row.pointee.quotedKey)
      appendString(utf8: text)
    case .rawDate:
      guard !row.pointee.options.contains(.noRawDate) else { return false }
      let text = storage.text(of: slot)
      guard !text.isEmpty else { return false }
      appendQuotedKey(row.pointee.quotedRawKey)
      appendString(utf8: text)
    case .flag:
      guard slot.isTrue || !row.pointee.options.contains(.onlyWhenTrue) else { return false }
      appendQuotedKey(row.pointee.quotedKey)
      appendStatic(slot.isTrue ? "true" : "false")
    case .object:
      let start = count
      let hadComma = needsComma
      appendQuotedKey(row.pointee.quotedKey)
      guard writeObject(slot, storage, rows: row.pointee.rows) else {
        dropBack(to: start, needsComma: hadComma)
        return false
      }
    case .list, .box:
      let start = count
      let hadComma = needsComma
      appendQuotedKey(row.pointee.quotedKey)
      guard writeValue(slot, storage, at: index, rows: row.pointee.rows) else {
        dropBack(to: start, needsComma: hadComma)
        return false
      }
    case .integer, .number, .instant:
      appendQuotedKey(row.pointee.quotedKey)
      _ = writeValue(slot, storage, at: index, rows: row.pointee.rows)
    case .empty, .entry:
      return false
    }
    return true
  }

  /// A value without its key: a string, a number, an object (its rows by `table`), a list;
  /// false when it wrote nothing (an empty text, or an object or list with nothing in it, which
  /// the caller then drops).
  private mutating func writeValue(
    _ slot: RecordSlot, _ storage: RecordStorage, at index: Int,
    rows: UnsafeBufferPointer<RecordTable.PackedRow>
  ) -> Bool {
    switch slot.kind {
    case .text, .rawDate:
      let text = storage.text(of: slot)
      guard !text.isEmpty else { return false }
      appendString(utf8: text)
    case .integer: appendDecimal(slot.integer)
    case .number:
      guard slot.number.isFinite else { return false }
      appendNumber(slot.number)
    case .flag: appendStatic(slot.isTrue ? "true" : "false")
    case .instant: appendInstant(slot.integer)
    case .object:
      return writeObject(slot, storage, rows: rows)
    case .list:
      let hadComma = needsComma
      appendByte(UInt8(ascii: "["))
      let elementsStart = count
      // By the entries' links: a closure over the list retained the storage for each.
      var entry = slot.firstEntry
      while entry != 0 {
        let start = count
        needsComma = false
        if start > elementsStart { appendByte(UInt8(ascii: ",")) }
        // An entry's object or text written here rather than through another `writeValue`:
        // a call for each of a podcast item's twenty entries.
        let value = storage[entry &+ 1]
        let written: Bool
        switch value.kind {
        case .object: written = writeObject(value, storage, rows: rows)
        case .text:
          let text = storage.text(of: value)
          written = !text.isEmpty
          if written { appendString(utf8: text) }
        default: written = writeValue(value, storage, at: entry &+ 1, rows: rows)
        }
        if !written { dropBack(to: start, needsComma: false) }
        entry = storage[entry].nextEntry
      }
      needsComma = hadComma
      guard count > elementsStart else { return false }
      appendByte(UInt8(ascii: "]"))
    case .box:
      return writeBox(storage.boxes(at: index))
    case .empty, .entry:
      return false
    }
    return true
  }

  /// An object's `{…}` by its table's `rows`; false when it holds nothing (the caller drops
  /// what was written).
  @inline(__always)
  private mutating func writeObject(
    _ slot: RecordSlot, _ storage: RecordStorage, rows: UnsafeBufferPointer<RecordTable.PackedRow>
  ) -> Bool {
    guard !rows.isEmpty else { return false }
    let hadComma = needsComma
    appendByte(UInt8(ascii: "{"))
    let fieldsStart = count
    needsComma = false
    writeRows(rows, of: storage, block: slot.block)
    appendByte(UInt8(ascii: "}"))
    needsComma = hadComma
    return count > fieldsStart &+ 1
  }

  /// A boxed value: the types whose shape the rows do not describe.
  private mutating func writeBox(_ value: (any Sendable)?) -> Bool {
    switch value {
    case let geo as GeoGeometry:
      writeGeometry(geo)
      return true
    case let extensions as FeedExtensions:
      guard !extensions.isEmpty else { return false }
      let hadComma = needsComma
      appendByte(UInt8(ascii: "{"))
      needsComma = false
      JSONLinesEncoding.extensionElements(extensions, to: &self)
      appendByte(UInt8(ascii: "}"))
      needsComma = hadComma
      return true
    default:
      return false
    }
  }
}
