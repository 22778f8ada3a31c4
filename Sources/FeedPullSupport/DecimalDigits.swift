/// An integer's decimal digits written straight into bytes: JSON output and the row-id lists a
/// SQLite store hands to its statements both write numbers at a rate where a `String` made for
/// each was a visible cost.
public enum DecimalDigits {
  /// The most bytes `write` writes: a sign and 19 digits.
  @inlinable public static var maximumCount: Int { 20 }

  /// Writes `value` (with a leading `-` when negative) at `out`, which has room for
  /// `maximumCount` bytes; returns how many it wrote. The digits are counted first and written
  /// from the last, in place: no reversal, no capacity check per digit. Inlinable: it is
  /// called for every number of every output line, from other modules.
  @inlinable @inline(__always)
  public static func write(_ value: Int64, into out: UnsafeMutablePointer<UInt8>) -> Int {
    var at = 0
    if value < 0 {
      out[0] = UInt8(ascii: "-")
      at = 1
    }
    var magnitude = value.magnitude
    var digits = 1
    var rest = magnitude
    while rest >= 10 {
      rest /= 10
      digits &+= 1
    }
    let end = at &+ digits
    var index = end
    repeat {
      index &-= 1
      out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
    return end
  }
}
