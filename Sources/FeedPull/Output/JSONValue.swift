/// A JSON document as a tree, keys in the order they were written.
///
/// It exists so that `Encodable` records come from the same encoder as the JSON Lines output:
/// a record is written as its line, and the line is read back into this tree, which any
/// `Encoder` can then write. One shape, one place to add a field.
enum JSONValue: Encodable, Equatable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .object(let members):
      var container = encoder.container(keyedBy: Key.self)
      for member in members {
        try container.encode(member.value, forKey: Key(member.key))
      }
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(element) }
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .integer(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }
}

/// Reads JSON text into a `JSONValue`: RFC 8259, strict, for the text our own encoder wrote.
struct JSONValueReader {
  private let bytes: [UInt8]
  private var position = 0

  /// Nil when `text` is not one complete JSON value.
  static func read(_ text: String) -> JSONValue? {
    var reader = JSONValueReader(bytes: Array(text.utf8))
    guard let value = reader.value() else { return nil }
    reader.skipSpace()
    return reader.position == reader.bytes.count ? value : nil
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private mutating func skipSpace() {
    while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
      position += 1
    }
  }

  private mutating func take(_ literal: String) -> Bool {
    let literal = Array(literal.utf8)
    guard bytes.count - position >= literal.count,
      Array(bytes[position..<position + literal.count]) == literal
    else { return false }
    position += literal.count
    return true
  }

  private mutating func value() -> JSONValue? {
    skipSpace()
    guard position < bytes.count else { return nil }
    switch bytes[position] {
    case UInt8(ascii: "{"): return object()
    case UInt8(ascii: "["): return array()
    case UInt8(ascii: "\""): return string().map(JSONValue.string)
    case UInt8(ascii: "t"): return take("true") ? .bool(true) : nil
    case UInt8(ascii: "f"): return take("false") ? .bool(false) : nil
    case UInt8(ascii: "n"): return take("null") ? .null : nil
    default: return number()
    }
  }

  private mutating func object() -> JSONValue? {
    position += 1
    var members: [(key: String, value: JSONValue)] = []
    skipSpace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string()
      else { return nil }
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
      position += 1
      guard let value = value() else { return nil }
      members.append((key, value))
      skipSpace()
      guard position < bytes.count else { return nil }
      position += 1
      switch bytes[position - 1] {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "}"): return .object(members)
      default: return nil
      }
    }
  }

  private mutating func array() -> JSONValue? {
    position += 1
    var elements: [JSONValue] = []
    skipSpace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(elements)
    }
    while true {
      guard let element = value() else { return nil }
      elements.append(element)
      skipSpace()
      guard position < bytes.count else { return nil }
      position += 1
      switch bytes[position - 1] {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "]"): return .array(elements)
      default: return nil
      }
    }
  }

  private mutating func number() -> JSONValue? {
    let start = position
    while position < bytes.count,
      "+-0123456789.eE".utf8.contains(bytes[position])
    {
      position += 1
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if let integer = Int64(text) { return .integer(integer) }
    return Double(text).map(JSONValue.number)
  }

  private mutating func string() -> String? {
    position += 1
    var scalars: [UInt8] = []
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""): return String(decoding: scalars, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard position < bytes.count else { return nil }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "u"):
          guard var code = hex4() else { return nil }
          if (0xD800..<0xDC00).contains(code), take("\\u"), let low = hex4(),
            (0xDC00..<0xE000).contains(low)
          {
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
          scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
        default: scalars.append(escape)
        }
      default: scalars.append(byte)
      }
    }
    return nil
  }

  private mutating func hex4() -> UInt32? {
    guard bytes.count - position >= 4,
      let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
    else { return nil }
    position += 4
    return value
  }
}
