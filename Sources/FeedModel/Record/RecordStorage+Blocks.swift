/// The parsers' way into a storage: an object is a `Block` typed by its table, and a field is a
/// key path into that table, which the compiler turns into a constant slot number. Every call
/// here works on bytes and slots; none makes a `String` or an array.
///
/// ```swift
/// let item = Block<ItemFields>.root
/// storage.setText(item, \.title, bytes)
/// let itunes = storage.object(item, \.itunes)
/// storage.set(itunes, \.duration, integer: 3_600)
/// ```
@usableFromInline package struct Block<Schema: RecordSchema>: Equatable {
  /// The block's first slot.
  @usableFromInline package let index: Int

  /// A block starting at `index`.
  @inlinable
  package init(_ index: Int) { self.index = index }

  /// The record's own block.
  @inlinable
  package static var root: Block { Block(0) }

  /// The slot of `field` in this block.
  @inlinable @inline(__always)
  package func slot<Value>(_ field: KeyPath<Schema, Field<Value>>) -> Int {
    index &+ Schema.row(field)
  }
}

extension RecordStorage {
  /// Whether `field` holds a value.
  @inlinable @inline(__always)
  package func has<S, V>(_ block: Block<S>, _ field: KeyPath<S, Field<V>>) -> Bool {
    self[block.slot(field)].kind != .empty
  }

  /// The text of `field` where it lies; nil when it holds none.
  @inlinable @inline(__always)
  package func text<S>(_ block: Block<S>, _ field: KeyPath<S, Field<String>>)
    -> UnsafeBufferPointer<UInt8>?
  {
    text(at: block.slot(field))
  }

  /// Sets `field` to a copy of `text`.
  @inlinable @inline(__always)
  package func setText<S>(
    _ block: Block<S>, _ field: KeyPath<S, Field<String>>, _ text: UnsafeBufferPointer<UInt8>
  ) {
    setText(text, at: block.slot(field))
  }

  /// Sets `field` to `text`.
  @inlinable @inline(__always)
  package func setText<S>(_ block: Block<S>, _ field: KeyPath<S, Field<String>>, _ text: String) {
    setText(text, at: block.slot(field))
  }

  /// Sets `field` to `text` unless it holds a value already (the first wins).
  @inlinable @inline(__always)
  package func setFirst<S>(
    _ block: Block<S>, _ field: KeyPath<S, Field<String>>, _ text: UnsafeBufferPointer<UInt8>
  ) {
    if !has(block, field) { setText(block, field, text) }
  }

  /// Sets an integer field.
  @inlinable @inline(__always)
  package func set<S, V: BinaryInteger>(
    _ block: Block<S>, _ field: KeyPath<S, Field<V>>, integer: Int64
  ) {
    set(RecordSlot(integer: integer), at: block.slot(field))
  }

  /// Sets a number field.
  @inlinable @inline(__always)
  package func set<S>(_ block: Block<S>, _ field: KeyPath<S, Field<Double>>, number: Double) {
    set(RecordSlot(number: number), at: block.slot(field))
  }

  /// Sets a flag field.
  @inlinable @inline(__always)
  package func set<S>(_ block: Block<S>, _ field: KeyPath<S, Field<Bool>>, flag: Bool) {
    set(RecordSlot(flag: flag), at: block.slot(field))
  }

  /// Sets a date field to an instant, or to its text when it could not be read.
  @inlinable @inline(__always)
  package func set<S>(
    _ block: Block<S>, _ field: KeyPath<S, Field<FeedDate>>, instant: Int64?,
    text: UnsafeBufferPointer<UInt8>
  ) {
    if let instant {
      set(RecordSlot(instant: instant), at: block.slot(field))
    } else {
      setText(text, at: block.slot(field), kind: .rawDate)
    }
  }

  /// Sets any field to `value` (the embedders' way in: for a value the parser already holds as
  /// a Swift value, such as a `GeoGeometry`).
  @inlinable @inline(__always)
  package func set<S, V>(_ block: Block<S>, _ field: KeyPath<S, Field<V>>, _ value: V.Accessed) {
    V.write(value, to: self, at: block.slot(field))
  }

  /// Any field as an embedder reads it.
  @inlinable @inline(__always)
  package func value<S, V>(_ block: Block<S>, _ field: KeyPath<S, Field<V>>) -> V.Accessed {
    V.read(self, at: block.slot(field))
  }

  /// Empties `field`.
  @inlinable @inline(__always)
  package func clear<S, V>(_ block: Block<S>, _ field: KeyPath<S, Field<V>>) {
    clear(at: block.slot(field))
  }

  /// Sets `field` to what `source` holds, both in this storage (texts are shared, not copied).
  @inlinable @inline(__always)
  package func copy<S, T, V>(
    _ source: Block<T>, _ sourceField: KeyPath<T, Field<V>>, to block: Block<S>,
    _ field: KeyPath<S, Field<V>>
  ) {
    copyValue(from: self, at: source.slot(sourceField), to: block.slot(field))
  }

  // MARK: Objects and lists

  /// The object in `field`, made (empty) when the field holds none.
  @inlinable @inline(__always)
  package func object<S, C>(_ block: Block<S>, _ field: KeyPath<S, Field<RecordObject<C>>>)
    -> Block<C>
  {
    Block(object(at: block.slot(field), count: C.fieldCount))
  }

  /// The object in `field`, nil when the field holds none.
  @inlinable @inline(__always)
  package func existing<S, C>(_ block: Block<S>, _ field: KeyPath<S, Field<RecordObject<C>>>)
    -> Block<C>?
  {
    existingObject(at: block.slot(field)).map(Block.init)
  }

  /// A new, empty object at the end of the list in `field`.
  @inlinable @inline(__always)
  package func append<S, C>(_ block: Block<S>, _ field: KeyPath<S, Field<[RecordObject<C>]>>)
    -> Block<C>
  {
    Block(appendObject(toListAt: block.slot(field), count: C.fieldCount))
  }

  /// Appends a copy of `text` to the list of texts in `field`.
  @inlinable @inline(__always)
  package func append<S>(
    _ block: Block<S>, _ field: KeyPath<S, Field<[String]>>, text: UnsafeBufferPointer<UInt8>
  ) {
    let value = appendEntry(toListAt: block.slot(field))
    setText(text, at: value)
  }

  /// The last object of the list in `field`, nil when it is empty.
  @inlinable @inline(__always)
  package func last<S, C>(_ block: Block<S>, _ field: KeyPath<S, Field<[RecordObject<C>]>>)
    -> Block<C>?
  {
    lastValue(ofListAt: block.slot(field)).flatMap(existingObject(at:)).map(Block.init)
  }

  /// How many entries the list in `field` has.
  @inlinable @inline(__always)
  package func count<S, V>(_ block: Block<S>, _ field: KeyPath<S, Field<[V]>>) -> Int {
    listCount(at: block.slot(field))
  }

  /// Calls `body` with each object of the list in `field`, in order, until it answers false.
  @inlinable @inline(__always)
  package func forEach<S, C>(
    _ block: Block<S>, _ field: KeyPath<S, Field<[RecordObject<C>]>>,
    _ body: (Block<C>) -> Bool
  ) {
    forEachValue(ofListAt: block.slot(field)) { value in
      guard let object = existingObject(at: value) else { return true }
      return body(Block(object))
    }
  }

  /// Calls `body` with the slot of each text of the list in `field`, in order, until it
  /// answers false.
  @inlinable @inline(__always)
  package func forEachText<S>(
    _ block: Block<S>, _ field: KeyPath<S, Field<[String]>>, _ body: (Int) -> Bool
  ) {
    forEachValue(ofListAt: block.slot(field), body)
  }
}
