/// Writes one JSON object into a byte buffer, field by field. Hand-written because records are
/// the hot path's output (one per item at hundreds of MB/s of feed) and Foundation's
/// JSONEncoder is an order of magnitude slower. Nil and empty values are left out, as the
/// contract asks ("never null, never \"\"").
struct JSONObjectWriter {
  private(set) var bytes: [UInt8]
  private var needsComma = false

  init(into bytes: [UInt8]) {
    self.bytes = bytes
    self.bytes.append(UInt8(ascii: "{"))
  }

  /// Closes the object and returns the buffer.
  consuming func finish() -> [UInt8] {
    bytes.append(UInt8(ascii: "}"))
    return bytes
  }

  mutating func field(_ key: StaticString, _ value: String?) {
    guard let value, !value.isEmpty else { return }
    appendKey(key)
    appendString(value)
  }

  mutating func field(_ key: StaticString, _ value: Int?) {
    guard let value else { return }
    field(key, Int64(value))
  }

  mutating func field(_ key: StaticString, _ value: Int64?) {
    guard let value else { return }
    appendKey(key)
    appendDecimal(value)
  }

  mutating func field(_ key: StaticString, _ value: Bool?) {
    guard let value else { return }
    appendKey(key)
    appendRaw(value ? "true" : "false")
  }

  /// A boolean written only when true (`not_modified`, `permanent_redirect`).
  mutating func flag(_ key: StaticString, _ value: Bool) {
    if value { field(key, true) }
  }

  mutating func field(_ key: StaticString, _ values: [String]) {
    let values = values.filter { !$0.isEmpty }
    guard !values.isEmpty else { return }
    appendKey(key)
    bytes.append(UInt8(ascii: "["))
    for (index, value) in values.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      appendString(value)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// An array of objects, each written by `body`; objects that end up empty are left out.
  mutating func objects<T>(
    _ key: StaticString, _ values: [T], _ body: (inout JSONObjectWriter, T) -> Void
  ) {
    guard !values.isEmpty else { return }
    var written = 0
    var array: [UInt8] = []
    for value in values {
      var object = JSONObjectWriter(into: [])
      body(&object, value)
      guard object.needsComma else { continue }
      array.append(UInt8(ascii: written == 0 ? "[" : ","))
      array.append(contentsOf: object.finish())
      written += 1
    }
    guard written > 0 else { return }
    appendKey(key)
    bytes.append(contentsOf: array)
    bytes.append(UInt8(ascii: "]"))
  }

  /// A nested object, left out when `body` writes nothing.
  mutating func object(_ key: StaticString, _ body: (inout JSONObjectWriter) -> Void) {
    var object = JSONObjectWriter(into: [])
    body(&object)
    guard object.needsComma else { return }
    appendKey(key)
    bytes.append(contentsOf: object.finish())
  }

  private mutating func appendKey(_ key: StaticString) {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    needsComma = true
    bytes.append(UInt8(ascii: "\""))
    key.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
  }

  private mutating func appendRaw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  private mutating func appendDecimal(_ value: Int64) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
    }
  }

  /// A JSON string: `"` and `\` escaped, control characters as escapes, the rest raw UTF-8.
  private mutating func appendString(_ value: String) {
    bytes.append(UInt8(ascii: "\""))
    var value = value
    value.withUTF8 { utf8 in
      var runStart = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        runStart = index + 1
        appendEscape(byte)
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func appendEscape(_ byte: UInt8) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
    case 0x0A: bytes.append(UInt8(ascii: "n"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    default:
      let hex: [UInt8] = Array("0123456789abcdef".utf8)
      bytes.append(contentsOf: [
        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
        hex[Int(byte & 0xF)],
      ])
    }
  }
}
