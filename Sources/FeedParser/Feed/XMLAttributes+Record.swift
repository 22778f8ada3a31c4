/// Attribute values stored into a record where they lie in libxml2's memory: trimmed on the
/// bytes, copied into the record's storage once. Only a value with a reference to decode
/// (`&amp;` in a URL) goes through a `String`.
extension XMLAttributes {
  /// Stores the trimmed value of `name` in the slot at `index`; false (and nothing stored) when
  /// the attribute is absent or blank.
  @discardableResult
  func store(_ name: StaticString, in storage: RecordStorage, at index: Int) -> Bool {
    switch trimmedBytes(name) {
    case .absent: return false
    case .plain(let bytes):
      guard !bytes.isEmpty else { return false }
      storage.setText(bytes, at: index)
      return true
    case .encoded:
      guard let text = trimmedValue(name) else { return false }
      storage.setText(text, at: index)
      return true
    }
  }

  /// `store` into a field.
  @discardableResult
  @inline(__always)
  func store<S>(
    _ name: StaticString, in storage: RecordStorage, _ block: Block<S>,
    _ field: KeyPath<S, Field<String>>
  ) -> Bool {
    store(name, in: storage, at: block.slot(field))
  }

  /// Stores the trimmed value of `name`, resolved against `base`, in the slot at `index`; false
  /// when absent or blank.
  @discardableResult
  func storeURL(
    _ name: StaticString, in storage: RecordStorage, at index: Int, base: String?
  ) -> Bool {
    switch trimmedBytes(name) {
    case .absent: return false
    case .plain(let bytes):
      guard !bytes.isEmpty else { return false }
      storage.setURL(bytes, at: index, base: base)
      return true
    case .encoded:
      guard let text = trimmedValue(name) else { return false }
      storage.setText(URIResolver.resolve(text, against: base), at: index)
      return true
    }
  }

  /// Stores the value of `name` resolved against `base` even when it is blank (an empty
  /// reference is the base itself, RFC 3986 section 5.2.2, as feedparser keeps it for a link's
  /// `href`); false only when the attribute is absent.
  @discardableResult
  func storeResolved(
    _ name: StaticString, in storage: RecordStorage, at index: Int, base: String?
  ) -> Bool {
    switch trimmedBytes(name) {
    case .absent: return false
    case .plain(let bytes) where !bytes.isEmpty: storage.setURL(bytes, at: index, base: base)
    case .plain, .encoded:
      storage.setText(URIResolver.resolve(value(name) ?? "", against: base), at: index)
    }
    return true
  }

  /// `storeURL` into a field.
  @discardableResult
  @inline(__always)
  func storeURL<S>(
    _ name: StaticString, in storage: RecordStorage, _ block: Block<S>,
    _ field: KeyPath<S, Field<String>>, base: String?
  ) -> Bool {
    storeURL(name, in: storage, at: block.slot(field), base: base)
  }

  /// Stores the attribute's integer (as `integer(_:)` reads it) in an integer field.
  @inline(__always)
  func storeInteger<S, V: BinaryInteger>(
    _ name: StaticString, in storage: RecordStorage, _ block: Block<S>,
    _ field: KeyPath<S, Field<V>>
  ) {
    if let value = integer(name) { storage.set(block, field, integer: Int64(value)) }
  }

  /// Stores the attribute's decimal (as `decimal(_:)` reads it) in a number field.
  @inline(__always)
  func storeDecimal<S>(
    _ name: StaticString, in storage: RecordStorage, _ block: Block<S>,
    _ field: KeyPath<S, Field<Double>>
  ) {
    if let value = decimal(name) { storage.set(block, field, number: value) }
  }

  /// Whether the element has the attribute `name` (no namespace), blank or not.
  func has(_ name: StaticString) -> Bool {
    if case .absent = trimmedBytes(name) { return false }
    return true
  }

  /// Whether the attribute `name` has a value that is not blank.
  func hasValue(_ name: StaticString) -> Bool {
    switch trimmedBytes(name) {
    case .absent: return false
    case .plain(let bytes): return !bytes.isEmpty
    case .encoded: return trimmedValue(name) != nil
    }
  }

  /// The attribute's trimmed bytes when they are plain and not blank; nil otherwise (absent,
  /// blank, or with references: read those with `trimmedValue`).
  func plainTrimmedBytes(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
    if case .plain(let bytes) = trimmedBytes(name), !bytes.isEmpty { return bytes }
    return nil
  }
}
