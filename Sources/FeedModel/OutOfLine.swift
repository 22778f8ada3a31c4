/// A value type whose blank value is a meaningful "nothing given", for `OutOfLine`.
public protocol BlankInitializable {
  /// The blank value: every field nil or empty.
  init()
}

/// A value kept behind one reference, copied on write: a record that carries no such value
/// carries a nil reference (one word, no reference counting), and one that does shares it
/// between copies until a copy changes. Changes through `value` happen in place.
///
/// Sendable because `Value` is and the shared storage is never written while shared (copy on
/// write); unchecked because `ManagedBuffer`, which it is kept in, is not Sendable.
public struct OutOfLine<Value: Sendable & Equatable & BlankInitializable>: @unchecked Sendable,
  Equatable
{
  /// The value as a `ManagedBuffer`'s header, read through its address: a class's stored
  /// `var` handed to a function is copied first (every string in it retained, then released),
  /// and a record's writer reads the whole value once a record.
  @usableFromInline
  final class Storage: ManagedBuffer<Value, UInt8> {
    @inlinable
    static func holding(_ value: consuming Value) -> Storage {
      var pending = Optional(value)
      return unsafeDowncast(
        Storage.create(minimumCapacity: 0) { _ in pending.take().unsafelyUnwrapped },
        to: Storage.self)
    }

    @inlinable
    var address: UnsafeMutablePointer<Value> { withUnsafeMutablePointerToHeader { $0 } }
  }

  @usableFromInline var storage: Storage?

  /// Nothing set: a nil reference, which costs no allocation.
  public init() {}

  /// Holds `value` (a blank one too: test `isBlank` only for a value never set); moved in.
  @inlinable
  public init(_ value: consuming Value) { storage = Storage.holding(value) }

  /// Takes `value`, leaving a blank one in its place: a swap, where `init(_:)` of a value the
  /// caller keeps would copy it (every string retained, every one released again later).
  @inlinable
  public init(taking value: inout Value) {
    let storage = Storage.holding(Value())
    swap(&storage.address.pointee, &value)
    self.storage = storage
  }

  /// The value, or a blank one when none was ever set.
  @inlinable
  public var value: Value {
    _read {
      if let storage {
        yield storage.address.pointee
      } else {
        yield Value()
      }
    }
    _modify {
      if storage == nil {
        storage = Storage.holding(Value())
      } else if !isKnownUniquelyReferenced(&storage!) {
        storage = Storage.holding(storage!.address.pointee)
      }
      yield &storage!.address.pointee
    }
  }

  /// `body` given the value in place. Reading `value` for a function's argument ends the
  /// read before the call and so copies the value first (measured: every string of a
  /// podcast item's fields retained and released once more for its JSON).
  @inlinable
  public func withValue<Result>(_ body: (borrowing Value) throws -> Result) rethrows -> Result {
    if let storage { return try body(storage.address.pointee) }
    return try body(Value())
  }

  /// True when nothing was ever set.
  @inlinable
  public var isBlank: Bool { storage == nil }

  /// Equal when both share storage, or their values (blank for a nil reference) are equal.
  public static func == (lhs: OutOfLine, rhs: OutOfLine) -> Bool {
    lhs.storage === rhs.storage || lhs.value == rhs.value
  }
}
