/// A value type whose blank value is a meaningful "nothing given", for `OutOfLine`.
public protocol BlankInitializable {
  /// The blank value: every field nil or empty.
  init()
}

/// A value kept behind one reference, copied on write: a record that carries no such value
/// carries a nil reference (one word, no reference counting), and one that does shares it
/// between copies until a copy changes. Changes through `value` happen in place.
public struct OutOfLine<Value: Sendable & Equatable & BlankInitializable>: Sendable, Equatable {
  /// Written only while uniquely referenced (checked before every mutation), hence unchecked.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    @usableFromInline var value: Value
    @usableFromInline init(_ value: Value) { self.value = value }
  }

  @usableFromInline
  var storage: Storage?

  /// Nothing set: a nil reference, which costs no allocation.
  public init() {}

  /// Holds `value` (a blank one too: test `isBlank` only for a value never set).
  public init(_ value: Value) { storage = Storage(value) }

  /// The value, or a blank one when none was ever set. Inlinable so that readers in other
  /// modules get it specialised: through the generic accessor, reading an item's extension
  /// fields cost about 750 instructions an item of a podcast feed (a caller that passes the
  /// value on still copies it).
  @inlinable
  public var value: Value {
    _read {
      if let storage {
        yield storage.value
      } else {
        yield Value()
      }
    }
    _modify {
      if storage == nil {
        storage = Storage(Value())
      } else if !isKnownUniquelyReferenced(&storage!) {
        storage = Storage(storage!.value)
      }
      yield &storage!.value
    }
  }

  /// True when nothing was ever set.
  public var isBlank: Bool { storage == nil }

  /// Equal when both share storage, or their values (blank for a nil reference) are equal.
  public static func == (lhs: OutOfLine, rhs: OutOfLine) -> Bool {
    lhs.storage === rhs.storage || lhs.value == rhs.value
  }
}
