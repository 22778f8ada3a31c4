import FeedPullSupport

/// Reads the strings of each chunk before yajl does, and hands yajl a one-byte placeholder in
/// place of each string it read: yajl still parses the document's structure (and judges it,
/// with its own messages), but no longer lexes and decodes the text, which was half of a JSON
/// Feed's parsing thread (its lexer a byte at a time through a table, its escape decoding a
/// byte at a time into a buffer). A string is scanned here eight bytes at a time, passed on
/// where it lies when it has no escape, and decoded in runs between escapes when it has.
///
/// Only strings that yajl would read the same way are taken: whole within the chunk, no byte
/// below 0x20 (yajl's lexical error), and only the escapes `\" \\ \/ \b \f \n \r \t` and
/// `\uXXXX` outside the surrogates (yajl pairs surrogates in its own way). Every other string,
/// and one that a chunk's end cuts, goes to yajl as the document writes it, and this scanner
/// follows it to its end. The placeholder is the byte 0xFF inside quotes, a string of one byte
/// that no other string can be: the text reaches yajl checked to be UTF-8, where 0xFF never
/// occurs, and yajl's decoding never writes it. Strings are reported in document order, so the
/// placeholders are resolved in the order they were made.
///
/// Not thread-safe: one parser's, used on the thread that pushes to it.
final class JSONStringBypass {
  /// A string taken from the chunk: its content's place in the chunk, and what it holds.
  private struct Taken {
    var start: Int
    var count: Int
    /// Holds escapes, so it must be decoded.
    var escaped: Bool
    /// An escape stands for a C0 control that the builder removes (`\b`, `\f`, `\u0001`, …).
    var mayHoldControls: Bool
  }

  /// Where the scanner is between chunks.
  private enum State {
    case outside
    /// Inside a string that goes to yajl as written.
    case inString
    /// Inside such a string, just after a backslash.
    case afterBackslash
  }

  private static let placeholder: UInt8 = 0xFF

  @exclusivity(unchecked) private var state = State.outside
  /// The chunk being pushed; the taken strings point into it.
  @exclusivity(unchecked) private var chunk: UnsafePointer<UInt8>?
  @exclusivity(unchecked) private var taken: [Taken] = []
  @exclusivity(unchecked) private var nextTaken = 0
  /// What yajl gets: the chunk with a placeholder for each string taken.
  @exclusivity(unchecked) private var output: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var outputCapacity = 0
  /// A taken string, decoded.
  @exclusivity(unchecked) private var decoded: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var decodedCapacity = 0

  init() {
    output = .allocate(capacity: 1)
    decoded = .allocate(capacity: 1)
  }

  deinit {
    output.deallocate()
    decoded.deallocate()
  }

  /// The bytes to give yajl for `chunk`: the chunk, each string it takes replaced by a
  /// placeholder. Valid until the next call; `chunk` must stay valid until `endChunk`.
  func rewrite(_ chunk: UnsafeRawBufferPointer) -> UnsafeBufferPointer<UInt8> {
    let count = chunk.count
    guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), count > 0 else {
      return UnsafeBufferPointer(start: nil, count: 0)
    }
    if outputCapacity < count {
      output.deallocate()
      outputCapacity = max(count, 2 * outputCapacity)
      output = .allocate(capacity: outputCapacity)
    }
    self.chunk = base
    let out = output
    var index = 0
    var written = 0
    if state != .outside {
      index = followString(base, from: 0, count: count)
      out.update(from: base, count: index)
      written = index
    }
    while index < count {
      // Outside strings: structure, numbers and literals, copied up to the next quote.
      let quote = index
      var cursor = index
      while cursor < count && base[cursor] != UInt8(ascii: "\"") { cursor &+= 1 }
      (out + written).update(from: base + quote, count: cursor &- quote)
      written &+= cursor &- quote
      guard cursor < count else { break }
      let start = cursor &+ 1
      // An empty string goes to yajl as written: its placeholder would be no shorter.
      if let string = scanString(base, from: start, count: count), string.end > start {
        taken.append(
          Taken(
            start: start, count: string.end &- start, escaped: string.escaped,
            mayHoldControls: string.mayHoldControls))
        out[written] = UInt8(ascii: "\"")
        out[written &+ 1] = Self.placeholder
        out[written &+ 2] = UInt8(ascii: "\"")
        written &+= 3
        index = string.end &+ 1
      } else {
        // As written: from its opening quote to its end, or to the chunk's end.
        state = .inString
        let end = followString(base, from: start, count: count)
        (out + written).update(from: base + cursor, count: end &- cursor)
        written &+= end &- cursor
        index = end
      }
    }
    return UnsafeBufferPointer(start: out, count: written)
  }

  /// Forgets the chunk's strings, once yajl has parsed it (or stopped in it).
  func endChunk() {
    taken.removeAll(keepingCapacity: true)
    nextTaken = 0
    chunk = nil
  }

  /// Calls `body` with the string yajl reports as `bytes`: the taken string when `bytes` is a
  /// placeholder (decoded, and whether it may hold controls), else `bytes` as yajl decoded them.
  @inline(__always)
  func resolve(
    _ bytes: UnsafeBufferPointer<UInt8>,
    _ body: (UnsafeBufferPointer<UInt8>, _ mayHoldControls: Bool) -> Bool
  ) -> Bool {
    guard bytes.count == 1, bytes[0] == Self.placeholder, nextTaken < taken.count,
      let chunk
    else { return body(bytes, true) }
    let string = taken[nextTaken]
    nextTaken &+= 1
    guard string.escaped else {
      return body(UnsafeBufferPointer(start: chunk + string.start, count: string.count), false)
    }
    return body(decode(chunk + string.start, count: string.count), string.mayHoldControls)
  }

  /// Follows a string that goes to yajl as written, from `index` (inside it, in `state`), to
  /// just past its closing quote (`state` then `.outside`), or to the chunk's end.
  private func followString(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
    var index = index
    if state == .afterBackslash {
      guard index < count else { return index }
      index &+= 1
      state = .inString
    }
    while index < count {
      let byte = base[index]
      index &+= 1
      if byte == UInt8(ascii: "\\") {
        guard index < count else {
          state = .afterBackslash
          return index
        }
        index &+= 1
      } else if byte == UInt8(ascii: "\"") {
        state = .outside
        return index
      }
    }
    return index
  }

  /// A string whose content starts at `start`, when this reader can take it: the index of its
  /// closing quote, whether it holds escapes, and whether they stand for controls.
  private func scanString(_ base: UnsafePointer<UInt8>, from start: Int, count: Int)
    -> (end: Int, escaped: Bool, mayHoldControls: Bool)?
  {
    var index = start
    var escaped = false
    var mayHoldControls = false
    while index < count {
      // Sixteen bytes at a time while nothing stops the scan (most of a text), then the word
      // that holds the stop.
      while index &+ 16 <= count {
        let low = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        let high = UnsafeRawPointer(base + index).loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        if Self.stops(low) | Self.stops(high) != 0 { break }
        index &+= 16
      }
      guard index < count else { break }
      if index &+ 8 <= count {
        let stops = Self.stops(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        if stops == 0 {
          index &+= 8
          continue
        }
        index &+= ByteWord.firstMatch(stops)
      }
      let byte = base[index]
      if byte == UInt8(ascii: "\"") { return (index, escaped, mayHoldControls) }
      if byte < 0x20 { return nil }
      guard byte == UInt8(ascii: "\\") else {
        index &+= 1
        continue
      }
      guard index &+ 1 < count else { return nil }
      escaped = true
      switch base[index &+ 1] {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "n"),
        UInt8(ascii: "r"), UInt8(ascii: "t"):
        index &+= 2
      case UInt8(ascii: "b"), UInt8(ascii: "f"):
        mayHoldControls = true
        index &+= 2
      case UInt8(ascii: "u"):
        guard index &+ 6 <= count, let scalar = Self.hex4(base + (index &+ 2)),
          scalar & 0xF800 != 0xD800
        else { return nil }
        if scalar < 0x20, ControlCharacters.isRemoved(UInt8(scalar)) { mayHoldControls = true }
        index &+= 6
      default: return nil
      }
    }
    return nil
  }

  /// The high bit of each byte of `word` that may stop a string's scan: a quote, a backslash,
  /// a control.
  @inline(__always)
  private static func stops(_ word: UInt64) -> UInt64 {
    ByteWord.matches(word, UInt8(ascii: "\"")) | ByteWord.matches(word, UInt8(ascii: "\\"))
      | ByteWord.matchesBelow(word, 0x20)
  }

  /// The four hex digits at `start`, as yajl's lexer accepts them.
  private static func hex4(_ start: UnsafePointer<UInt8>) -> UInt32? {
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = start[offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// A taken string's content with its escapes decoded as yajl decodes them (a scalar as its
  /// UTF-8, `\u0000` as a zero byte), into the reused buffer. It is never longer than the text.
  private func decode(_ text: UnsafePointer<UInt8>, count: Int) -> UnsafeBufferPointer<UInt8> {
    if decodedCapacity < count {
      decoded.deallocate()
      decodedCapacity = max(count, 2 * decodedCapacity)
      decoded = .allocate(capacity: decodedCapacity)
    }
    let out = decoded
    var index = 0
    var written = 0
    while index < count {
      var run = index
      while run &+ 8 <= count {
        let word = UnsafeRawPointer(text + run).loadUnaligned(as: UInt64.self)
        let stops = ByteWord.matches(word, UInt8(ascii: "\\"))
        if stops != 0 {
          run &+= ByteWord.firstMatch(stops)
          break
        }
        run &+= 8
      }
      while run < count && text[run] != UInt8(ascii: "\\") { run &+= 1 }
      (out + written).update(from: text + index, count: run &- index)
      written &+= run &- index
      guard run < count else { break }
      let escape = text[run &+ 1]
      index = run &+ 2
      switch escape {
      case UInt8(ascii: "n"): out[written] = 0x0A
      case UInt8(ascii: "r"): out[written] = 0x0D
      case UInt8(ascii: "t"): out[written] = 0x09
      case UInt8(ascii: "b"): out[written] = 0x08
      case UInt8(ascii: "f"): out[written] = 0x0C
      case UInt8(ascii: "u"):
        // Checked by `scanString`: four hex digits, not a surrogate.
        let scalar = Self.hex4(text + index) ?? 0
        index &+= 4
        if scalar < 0x80 {
          out[written] = UInt8(truncatingIfNeeded: scalar)
        } else if scalar < 0x800 {
          out[written] = UInt8(truncatingIfNeeded: scalar >> 6) | 0xC0
          written &+= 1
          out[written] = UInt8(truncatingIfNeeded: scalar & 0x3F) | 0x80
        } else {
          out[written] = UInt8(truncatingIfNeeded: scalar >> 12) | 0xE0
          out[written &+ 1] = UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F) | 0x80
          written &+= 2
          out[written] = UInt8(truncatingIfNeeded: scalar & 0x3F) | 0x80
        }
      default: out[written] = escape  // `"`, `\`, `/`
      }
      written &+= 1
    }
    return UnsafeBufferPointer(start: out, count: written)
  }
}

@available(*, unavailable)
extension JSONStringBypass: Sendable {}
