import FeedPullSupport

/// A batch of names handed to one SQLite statement as JSON text (`json_each(?)`): a statement
/// per batch instead of per source, since SQLite's cost per statement is above the cost of the
/// row it changes. Written byte by byte: names are short, and the only escaping JSON needs is
/// of quotes, backslashes and control characters.
struct SQLiteJSON {
  private(set) var bytes: [UInt8] = []

  /// A JSON array of `names`.
  static func array(of names: [String]) -> String {
    array(of: names, bytesEach: 48) { json, name in json.append(name) }
  }

  /// A JSON array of `numbers` (row ids).
  static func array(of numbers: [Int64]) -> String {
    array(of: numbers, bytesEach: 8) { json, number in json.append(number) }
  }

  /// A number's decimal digits (`DecimalDigits`: no string made for each).
  mutating func append(_ number: Int64) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalDigits.maximumCount) {
      let count = DecimalDigits.write(number, into: $0.baseAddress!)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count]))
    }
  }

  /// A JSON array of `elements`, each written by `write`; `bytesEach` sizes the buffer once.
  private static func array<Element>(
    of elements: [Element], bytesEach: Int, write: (inout SQLiteJSON, Element) -> Void
  ) -> String {
    var json = SQLiteJSON()
    json.bytes.reserveCapacity(elements.count * bytesEach + 2)
    json.bytes.append(UInt8(ascii: "["))
    for (index, element) in elements.enumerated() {
      if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
      write(&json, element)
    }
    json.bytes.append(UInt8(ascii: "]"))
    return json.text
  }

  /// The JSON written so far, as text.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// A string, or `null`.
  mutating func append(_ text: String?) {
    guard var text else { return bytes.append(contentsOf: "null".utf8) }
    bytes.append(UInt8(ascii: "\""))
    text.withUTF8 { utf8 in
      // Most names need no escape: copied whole.
      guard
        utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
      else { return bytes.append(contentsOf: utf8) }
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
          bytes.append(UInt8(ascii: "\\"))
          bytes.append(byte)
        case 0..<0x20:
          bytes.append(contentsOf: "\\u00".utf8)
          bytes.append(Self.hex[Int(byte >> 4)])
          bytes.append(Self.hex[Int(byte & 15)])
        default: bytes.append(byte)
        }
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private static let hex = Array("0123456789abcdef".utf8)
}
