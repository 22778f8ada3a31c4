/// The inside of a comment or a processing instruction, read one byte at a time until the
/// `-->` or `?>` that ends it. The repair filter's markup tracker (`XMLMarkupTracker`), the
/// prolog before the root element (`DoctypeGate`, a comment in the internal subset too) and
/// the epilog after the root (`EpilogScanner`) all follow these constructs in front of
/// libxml2, and must agree on where one ends however the bytes were chunked: one reading,
/// shared.
struct CommentOrPIBody: Equatable {
  enum Kind {
    /// After `<!--`.
    case comment
    /// After `<?`.
    case processingInstruction
  }

  let kind: Kind
  /// Dashes (in a comment, counted up to 3) or a question mark (in a PI) just before the
  /// current byte.
  private var run: UInt8 = 0
  /// A comment holds `--` before its end, which XML 1.0 forbids (production 15).
  private(set) var sawDoubleDash = false

  init(_ kind: Kind) { self.kind = kind }

  /// The byte that could start the end delimiter: `-` in a comment, `?` in a PI.
  var delimiterStart: UInt8 {
    kind == .comment ? UInt8(ascii: "-") : UInt8(ascii: "?")
  }

  /// True when no byte of the end delimiter has been seen: bytes other than
  /// `delimiterStart` (and controls, which the filter judges) may be copied without a step.
  var isBetweenDelimiters: Bool { run == 0 }

  /// Reads the next byte; true when it ended the construct.
  mutating func step(_ byte: UInt8) -> Bool {
    switch kind {
    case .comment:
      if byte == UInt8(ascii: ">") && run >= 2 { return true }
      if run >= 2 { sawDoubleDash = true }
      run = byte == UInt8(ascii: "-") ? min(run + 1, 3) : 0
    case .processingInstruction:
      if byte == UInt8(ascii: ">") && run > 0 { return true }
      run = byte == UInt8(ascii: "?") ? 1 : 0
    }
    return false
  }
}
