/// The inside of a comment or a processing instruction, read one byte at a time until the
/// `-->` or `?>` that ends it. The prolog before the root element (`DoctypeGate`), a comment
/// in the internal subset, and the epilog after the root (`EpilogScanner`) all skip these
/// constructs in place of libxml2, and must agree on where one ends however the bytes were
/// chunked: one reading, shared.
struct CommentOrPIBody {
  enum Kind {
    /// After `<!--`.
    case comment
    /// After `<?`.
    case processingInstruction
  }

  let kind: Kind
  /// Dashes (in a comment) or question marks (in a PI) just before the current byte.
  private var run = 0
  /// A comment holds `--` before its end, which XML 1.0 forbids (production 15).
  private(set) var sawDoubleDash = false

  init(_ kind: Kind) { self.kind = kind }

  /// Reads the next byte; true when it ended the construct.
  mutating func step(_ byte: UInt8) -> Bool {
    switch kind {
    case .comment:
      if byte == UInt8(ascii: ">") && run >= 2 { return true }
      if run >= 2 { sawDoubleDash = true }
      run = byte == UInt8(ascii: "-") ? run + 1 : 0
    case .processingInstruction:
      if byte == UInt8(ascii: ">") && run > 0 { return true }
      run = byte == UInt8(ascii: "?") ? 1 : 0
    }
    return false
  }
}
