/// Holds back the start of a document until its DOCTYPE declaration is complete, then lets the
/// bytes through. libxml2 2.9.14's push parser decides where a DOCTYPE ends by looking ahead
/// for `>` in whatever bytes it has, so a malformed declaration (an unclosed quoted ID) parsed
/// differently when it arrived in small chunks (found by the fuzzer, `Tests/Fuzz`). Given the
/// whole declaration at once, libxml2 reads it the same way however the document was split.
/// Documents without a DOCTYPE pass as soon as the root element's `<` shows; one whose DOCTYPE
/// never ends is held to the end of the document (or to `limit` bytes).
struct DoctypeGate {
  private enum State {
    /// Between markup in the prolog.
    case prolog
    /// After `<`, with the bytes of the construct read so far (`<!DOCTYPE`, `<!--`, `<?`).
    case markupStart([UInt8])
    case comment(dashes: Int)
    case processingInstruction(sawQuestionMark: Bool)
    case doctype(quote: UInt8?, bracketDepth: Int)
    /// A comment inside the internal subset, whose text may hold quotes and brackets.
    case subsetComment(bracketDepth: Int, dashes: Int)
    case open
  }

  private var state = State.prolog
  private var held: [UInt8] = []
  /// The last four bytes seen, to notice `<!--` inside the internal subset.
  private var recent: UInt32 = 0
  private let limit: Int

  init(limit: Int = 1 << 20) { self.limit = limit }

  /// Bytes held back: part of the parser's retained state.
  var heldByteCount: Int { held.count }

  /// Hands `body` the bytes that may go on to libxml2 now.
  mutating func process(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    if case .open = state {
      body(input)
      return
    }
    for byte in input where !isOpen { step(byte) }
    held.append(contentsOf: input)
    if isOpen || held.count > limit {
      state = .open
      held.withUnsafeBytes(body)
      held = []
    }
  }

  /// Lets through whatever is still held.
  mutating func finish(_ body: (UnsafeRawBufferPointer) -> Void) {
    state = .open
    held.withUnsafeBytes(body)
    held = []
  }

  private var isOpen: Bool {
    if case .open = state { return true }
    return false
  }

  private static let commentOpener: UInt32 = 0x3C21_2D2D  // "<!--"

  private mutating func step(_ byte: UInt8) {
    recent = recent << 8 | UInt32(byte)
    switch state {
    case .open:
      return
    case .prolog:
      if byte == UInt8(ascii: "<") { state = .markupStart([]) }
    case .markupStart(var seen):
      seen.append(byte)
      if seen == Array("?".utf8) {
        state = .processingInstruction(sawQuestionMark: false)
      } else if seen == Array("!--".utf8) {
        state = .comment(dashes: 0)
      } else if seen.count == 8, seen == Array("!DOCTYPE".utf8) {
        state = .doctype(quote: nil, bracketDepth: 0)
      } else if Array("!DOCTYPE".utf8).starts(with: seen) || Array("!--".utf8).starts(with: seen) {
        state = .markupStart(seen)
      } else {
        state = .open  // The root element (or something libxml2 will reject either way).
      }
    case .comment(let dashes):
      if byte == UInt8(ascii: ">") && dashes >= 2 {
        state = .prolog
      } else {
        state = .comment(dashes: byte == UInt8(ascii: "-") ? dashes + 1 : 0)
      }
    case .processingInstruction(let sawQuestionMark):
      if byte == UInt8(ascii: ">") && sawQuestionMark {
        state = .prolog
      } else {
        state = .processingInstruction(sawQuestionMark: byte == UInt8(ascii: "?"))
      }
    case .subsetComment(let depth, let dashes):
      if byte == UInt8(ascii: ">") && dashes >= 2 {
        state = .doctype(quote: nil, bracketDepth: depth)
      } else {
        state = .subsetComment(
          bracketDepth: depth, dashes: byte == UInt8(ascii: "-") ? dashes + 1 : 0)
      }
    case .doctype(let quote, let depth):
      if quote == nil && depth > 0 && recent == Self.commentOpener {
        state = .subsetComment(bracketDepth: depth, dashes: 0)
      } else if let quote {
        state = .doctype(quote: byte == quote ? nil : quote, bracketDepth: depth)
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        state = .doctype(quote: byte, bracketDepth: depth)
      } else if byte == UInt8(ascii: "[") {
        state = .doctype(quote: nil, bracketDepth: depth + 1)
      } else if byte == UInt8(ascii: "]") {
        state = .doctype(quote: nil, bracketDepth: max(0, depth - 1))
      } else if byte == UInt8(ascii: ">") && depth == 0 {
        state = .open
      }
    }
  }
}
