/// Fields that a layer above the pipeline adds to a source's `end` record: the subscription
/// layer's `new_items`, `next_check_at`, `skipped` and the rest. The pipeline knows nothing of
/// them; it carries them (`EndRecord.addedFields`) and its writers write them after its own
/// fields and before `error`, through `EndRecordFieldWriter`, so that they are escaped and left
/// out when empty exactly as the pipeline's own fields are.
public protocol EndRecordFields: Sendable {
  /// Writes the fields, in the order the output documents them.
  func write(to writer: inout EndRecordFieldWriter)
  /// Whether `other` holds the same fields (`EndRecord` is `Equatable`).
  func isEqual(to other: any EndRecordFields) -> Bool
}

extension EndRecordFields where Self: Equatable {
  /// Equal when `other` is of the same type and equal.
  public func isEqual(to other: any EndRecordFields) -> Bool {
    (other as? Self) == self
  }
}

/// Where `EndRecordFields` write: named values in the JSON Lines conventions (a nil value is
/// left out, an instant is RFC 3339 in UTC). Lives only for the `write(to:)` call that gets it.
public struct EndRecordFieldWriter: ~Copyable {
  private let line: UnsafeMutablePointer<JSONLineBuffer>

  init(_ line: UnsafeMutablePointer<JSONLineBuffer>) {
    self.line = line
  }

  /// A count, left out when nil.
  public mutating func field(_ name: StaticString, _ value: Int?) {
    line.pointee.field(name, value)
  }

  /// Text, left out when nil or empty.
  public mutating func field(_ name: StaticString, _ value: String?) {
    line.pointee.field(name, value)
  }

  /// A moment, given as whole seconds since 1970 (UTC), written as RFC 3339; left out when nil.
  public mutating func field(_ name: StaticString, instant seconds: Int64?) {
    guard let seconds else { return }
    line.pointee.field(name, instant: seconds)
  }
}
