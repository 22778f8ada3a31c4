import FeedParser
import Foundation

/// Why an export (or a list) could not be imported: the line and the field, for a person.
public struct TransferError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, naming the line or the field.
  public var message: String
  /// The message.
  public var description: String { message }

  init(_ message: String) { self.message = message }

  /// A decoder's complaint in a few words: the field, and what is wrong with it.
  static func reason(_ error: DecodingError) -> String {
    func name(_ path: [any CodingKey]) -> String {
      path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "not a state export line: no \"\(name(context.codingPath + [key]))\""
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "\"\(name(context.codingPath))\" has a value of the wrong type"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "not JSON" : "\"\(name(context.codingPath))\" has a value that is not allowed"
    @unknown default:
      return "not a state export line"
    }
  }
}

/// The value spellings of an export: hashes as 16 hexadecimal digits, times as RFC 3339 in UTC.
enum TransferValues {
  /// A 64-bit hash as 16 lower-case hexadecimal digits (its bit pattern).
  static func hex(_ value: Int64) -> String { hex(UInt64(bitPattern: value)) }

  static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The hash back from its 16 digits.
  static func key(_ text: String, _ field: String) throws(TransferError) -> Int64 {
    guard text.count == 16, let value = UInt64(text, radix: 16) else {
      throw TransferError("\(field) is not 16 hexadecimal digits: \(text)")
    }
    return Int64(bitPattern: value)
  }

  /// A moment since 1970 as `2025-11-01T18:30:00Z` (whole seconds). Written by hand: a
  /// Foundation `ISO8601DateFormatter`, made for each time, cost 200 µs of ICU's set-up a time,
  /// and an export of a million sources took more than ten minutes.
  static func rfc3339(_ moment: Duration) -> String {
    FeedDateParser.rfc3339(moment.wholeSeconds)
  }

  /// The moment since 1970 of an RFC 3339 time (any offset; fractions dropped).
  static func moment(_ text: String, _ field: String) throws(TransferError) -> Duration {
    guard let seconds = FeedDateParser.rfc3339Seconds(text) else {
      throw TransferError("\(field) is not an RFC 3339 time: \(text)")
    }
    return .seconds(seconds)
  }
}
