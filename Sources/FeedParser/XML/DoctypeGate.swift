/// Stands between the repaired bytes and libxml2 until the root element starts. It drops the
/// prolog's comments and processing instructions (they carry nothing for a feed) and holds
/// back a DOCTYPE declaration until it is complete, then lets everything through. libxml2
/// 2.9.14's push parser reads a malformed DOCTYPE (an unclosed quoted ID) or prolog comment
/// (`--` inside) differently depending on how the bytes were chunked (fuzzer finds); given no
/// comments and the whole declaration at once, it reads the prolog the same way every time.
/// A prolog comment or PI that is malformed or never ends makes the document not well-formed.
struct DoctypeGate {
  private enum State {
    /// Between markup in the prolog.
    case prolog
    /// After `<`, with the bytes of the construct read so far (`!DOCTYPE`, `!--`, `?`).
    case markupStart([UInt8])
    /// Inside a prolog comment or processing instruction, which is dropped.
    case skipping(CommentOrPIBody)
    case doctype(quote: UInt8?, bracketDepth: Int)
    /// A comment inside the internal subset, whose text may hold quotes and brackets.
    case subsetComment(bracketDepth: Int, CommentOrPIBody)
    case open
  }

  private var state = State.prolog
  private var held: [UInt8] = []
  /// The last four bytes seen, to notice `<!--` inside the internal subset.
  private var recent: UInt32 = 0
  private let limit: Int
  /// A prolog comment with `--` inside, or a comment or PI cut off by the document's end.
  private(set) var sawMalformedMarkup = false
  /// The gate opened at the start of the root element (not at the end of a DOCTYPE).
  private var openedAtRoot = false

  init(limit: Int = 1 << 20) { self.limit = limit }

  /// Bytes held back: part of the parser's retained state.
  var heldByteCount: Int { held.count }

  /// Hands `body` the bytes that may go on to libxml2 now.
  mutating func process(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    if case .open = state {
      body(input)
      return
    }
    let index = stepUntilOpen(input)
    if isOpen {
      held.append(contentsOf: input[index...])
    }
    if isOpen || held.count > limit {
      open(body)
    }
  }

  /// Like `process`, but when the gate opens at the root element's first bytes it stops there:
  /// hands `body` what it held and returns how many bytes of `input` it took, so that the
  /// caller can look at the rest itself. Opened by the end of a DOCTYPE, it lets the rest of
  /// `input` through with the declaration, in one piece, as `process` does: libxml2 2.9.14
  /// reads junk after a DOCTYPE differently when the two come in separate pushes (a fuzzer
  /// find).
  mutating func processUntilOpen(
    _ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void
  ) -> Int {
    if case .open = state { return 0 }
    var index = stepUntilOpen(input)
    if isOpen && !openedAtRoot {
      held.append(contentsOf: input[index...])
      index = input.count
    }
    if isOpen || held.count > limit { open(body) }
    return index
  }

  /// Reads bytes until the gate opens or `input` ends; returns how many it read.
  private mutating func stepUntilOpen(_ input: UnsafeRawBufferPointer) -> Int {
    var index = 0
    while index < input.count, !isOpen {
      step(input[index])
      index += 1
    }
    return index
  }

  /// Lets through whatever is still held.
  mutating func finish(_ body: (UnsafeRawBufferPointer) -> Void) {
    if case .skipping = state { sawMalformedMarkup = true }
    open(body)
  }

  private mutating func open(_ body: (UnsafeRawBufferPointer) -> Void) {
    if case .markupStart(let seen) = state {
      held.append(UInt8(ascii: "<"))
      held.append(contentsOf: seen)
    }
    state = .open
    held.withUnsafeBytes(body)
    held = []
  }

  /// True once every byte goes straight through.
  var isOpen: Bool {
    if case .open = state { return true }
    return false
  }

  private static let commentOpener: UInt32 = 0x3C21_2D2D  // "<!--"
  private static let doctypeKeyword = Array("!DOCTYPE".utf8)
  private static let commentKeyword = Array("!--".utf8)

  private mutating func step(_ byte: UInt8) {
    recent = recent << 8 | UInt32(byte)
    switch state {
    case .open:
      return
    case .prolog:
      if byte == UInt8(ascii: "<") { state = .markupStart([]) } else { held.append(byte) }
    case .markupStart(var seen):
      seen.append(byte)
      if seen == [UInt8(ascii: "?")] {
        state = .skipping(CommentOrPIBody(.processingInstruction))
      } else if seen == Self.commentKeyword {
        state = .skipping(CommentOrPIBody(.comment))
      } else if seen == Self.doctypeKeyword {
        held.append(UInt8(ascii: "<"))
        held.append(contentsOf: seen)
        state = .doctype(quote: nil, bracketDepth: 0)
      } else if Self.doctypeKeyword.starts(with: seen) || Self.commentKeyword.starts(with: seen) {
        state = .markupStart(seen)
      } else {
        // The root element (or something libxml2 will reject either way).
        held.append(UInt8(ascii: "<"))
        held.append(contentsOf: seen)
        state = .open
        openedAtRoot = true
      }
    case .skipping(var body):
      let ended = body.step(byte)
      if body.sawDoubleDash { sawMalformedMarkup = true }
      state = ended ? .prolog : .skipping(body)
    case .subsetComment(let depth, var body):
      held.append(byte)
      state =
        body.step(byte)
        ? .doctype(quote: nil, bracketDepth: depth) : .subsetComment(bracketDepth: depth, body)
    case .doctype(let quote, let depth):
      held.append(byte)
      if quote == nil && depth > 0 && recent == Self.commentOpener {
        state = .subsetComment(bracketDepth: depth, CommentOrPIBody(.comment))
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
