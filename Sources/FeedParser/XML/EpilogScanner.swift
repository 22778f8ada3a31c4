/// Reads what follows the root element's end tag, in place of libxml2. XML allows only white
/// space, comments and processing instructions there (XML 1.0 production 27, `Misc`); real
/// feeds append junk (a second document, a stray `</rss>`, text). libxml2 2.9.14's push parser
/// reads that epilog differently depending on how the bytes were chunked (an unterminated
/// comment there was found by the fuzzer), so the parser stops libxml2 at the root's end and
/// this byte scanner, which sees every byte the same way however it arrives, decides instead.
struct EpilogScanner {
  private enum State {
    case between
    /// After `<`.
    case markup
    /// After `<!`, with the dashes of `<!--` seen so far.
    case commentOpening(dashes: Int)
    case skipping(CommentOrPIBody)
  }

  private var state = State.between
  /// Anything but white space, comments and processing instructions.
  private(set) var sawJunk = false
  /// A start tag: content that libxml2 never read.
  private(set) var sawStartTag = false

  mutating func scan(_ bytes: UnsafeRawBufferPointer) {
    for byte in bytes { step(byte) }
  }

  /// An unterminated comment or processing instruction at the end is junk too.
  mutating func finish() {
    if case .between = state { return }
    sawJunk = true
    state = .between
  }

  private mutating func step(_ byte: UInt8) {
    switch state {
    case .between:
      if byte == UInt8(ascii: "<") {
        state = .markup
      } else if !byte.isXMLSpace {
        sawJunk = true
      }
    case .markup:
      switch byte {
      case UInt8(ascii: "!"): state = .commentOpening(dashes: 0)
      case UInt8(ascii: "?"): state = .skipping(CommentOrPIBody(.processingInstruction))
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...0xFF:
        sawStartTag = true
        sawJunk = true
        state = .between
      default:
        sawJunk = true
        state = .between
      }
    case .commentOpening(let dashes):
      if byte == UInt8(ascii: "-") {
        state = dashes == 1 ? .skipping(CommentOrPIBody(.comment)) : .commentOpening(dashes: 1)
      } else {
        sawJunk = true
        state = .between
      }
    case .skipping(var body):
      state = body.step(byte) ? .between : .skipping(body)
    }
  }
}
