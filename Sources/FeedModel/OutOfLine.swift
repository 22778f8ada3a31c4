/// A value type whose blank value is a meaningful "nothing given", for `OutOfLine`.
public protocol BlankInitializable {
  /// The blank value: every field nil or empty.
  init()
}

/// A value kept behind one reference, copied on write: a record that carries no such value
/// carries a nil reference (one word, no reference counting), and one that does shares it
/// between copies until a copy changes. Changes through `value` happen in place.
///
/// Unchecked `Sendable`: the storage (a `ManagedBuffer`, which Swift never lets be `Sendable`)
/// holds a `Sendable` value and is changed only while this is its one reference.
public struct OutOfLine<Value: Sendable & Equatable & BlankInitializable>: @unchecked Sendable,
  Equatable
{
  /// The value in the object's own allocation (a `ManagedBuffer`'s one element), so that a
  /// reader can be given its address without a formal access to a stored property: an `inout`
  /// access would count as a write, for the exclusivity checks and for ThreadSanitizer, while
  /// another thread may be reading a copy of the same record. Written only while uniquely
  /// referenced (checked before every mutation).
  @usableFromInline
  final class Storage: ManagedBuffer<Void, Value> {
    @inlinable
    static func holding(_ value: Value) -> Storage {
      let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in }, to: Storage.self)
      storage.withUnsafeMutablePointerToElements { $0.initialize(to: value) }
      return storage
    }

    /// Valid while the object lives.
    @inlinable
    var pointer: UnsafeMutablePointer<Value> { withUnsafeMutablePointerToElements { $0 } }

    @inlinable
    deinit { _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) } }
  }

  @usableFromInline
  var storage: Storage?

  /// Nothing set: a nil reference, which costs no allocation.
  public init() {}

  /// Holds `value` (a blank one too: test `isBlank` only for a value never set).
  public init(_ value: Value) { storage = .holding(value) }

  /// The value, or a blank one when none was ever set. Inlinable so that readers in other
  /// modules get it specialised: through the generic accessor, reading an item's extension
  /// fields cost about 750 instructions an item of a podcast feed (a caller that passes the
  /// value on still copies it).
  @inlinable
  public var value: Value {
    _read {
      if let storage {
        yield storage.pointer.pointee
      } else {
        yield Value()
      }
    }
    _modify {
      if storage == nil {
        storage = .holding(Value())
      } else if !isKnownUniquelyReferenced(&storage!) {
        storage = .holding(storage!.pointer.pointee)
      }
      let storage = storage!
      yield &storage.pointer.pointee
    }
  }

  /// Calls `body` with the value's address (a blank value's for a nil reference), for a reader
  /// that takes the value's fields one at a time. Swift copies a value read out of a class's
  /// storage before passing it on (retaining every reference inside it), also to a `borrowing`
  /// parameter and through `value`'s `_read`; through the address each field read copies only
  /// that field. The JSON writer reads an item's extension fields so (docs/namespaces.md).
  @inlinable
  package func withUnsafeValue<Result>(_ body: (UnsafePointer<Value>) -> Result) -> Result {
    guard let storage else {
      var blank = Value()
      return withUnsafePointer(to: &blank, body)
    }
    return withExtendedLifetime(storage) { body(UnsafePointer(storage.pointer)) }
  }

  /// True when nothing was ever set.
  public var isBlank: Bool { storage == nil }

  /// Equal when both share storage, or their values (blank for a nil reference) are equal.
  public static func == (lhs: OutOfLine, rhs: OutOfLine) -> Bool {
    lhs.storage === rhs.storage || lhs.value == rhs.value
  }
}
