/// What `XMLInputPreparer` converts a document to UTF-8 with, chunk by chunk: iconv for what
/// it knows, a table for the few single-byte encodings it lacks.
protocol DocumentTranscoder: AnyObject {
  /// True once a sequence could not be converted (the document is not well-formed as sent).
  var repaired: Bool { get }
  /// Hands `body` the UTF-8 for `input` (and for what an earlier chunk left pending).
  func process(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void)
  /// The document's end: hands `body` what is still pending.
  func finish(_ body: (UnsafeRawBufferPointer) -> Void)
}

extension IconvTranscoder: DocumentTranscoder {}

/// A single-byte encoding by table (`SingleByteCharsets`): ASCII stays, each upper byte
/// becomes its scalar's two or three UTF-8 bytes. One byte is one character, so no sequence is
/// ever cut by a chunk boundary and every byte has a character: nothing is ever repaired.
final class SingleByteTranscoder: DocumentTranscoder {
  private let upperHalf: [UInt16]
  private var output: [UInt8] = []

  let repaired = false

  /// Nil when no table has `encoding` (a canonical name).
  init?(encoding: String) {
    guard let table = SingleByteCharsets.upperHalf(for: encoding) else { return nil }
    precondition(table.count == 128)
    upperHalf = table
  }

  func process(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    output.removeAll(keepingCapacity: true)
    output.reserveCapacity(input.count * 3)
    for byte in input {
      guard byte >= 0x80 else {
        output.append(byte)
        continue
      }
      let scalar = upperHalf[Int(byte - 0x80)]
      if scalar < 0x800 {
        output.append(UInt8(0xC0 | (scalar >> 6)))
        output.append(UInt8(0x80 | (scalar & 0x3F)))
      } else {
        output.append(UInt8(0xE0 | (scalar >> 12)))
        output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
        output.append(UInt8(0x80 | (scalar & 0x3F)))
      }
    }
    output.withUnsafeBytes(body)
  }

  func finish(_ body: (UnsafeRawBufferPointer) -> Void) {}
}
