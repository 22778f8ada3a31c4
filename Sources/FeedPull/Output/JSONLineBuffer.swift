import FeedParser
import FeedPullSupport

/// Pending JSON Lines output, written field by field straight into one byte buffer. Hand-written
/// because records are the hot path's output (one per item at hundreds of MB/s of feed) and
/// Foundation's JSONEncoder is an order of magnitude slower; and mutated in place, never copied,
/// because a copy of the pending buffer per record was the profile's top cost. Nil and empty
/// values are left out (docs/format.md: never `null`, never `""`).
struct JSONLineBuffer: ~Copyable {
  private(set) var bytes = OutputBytes()
  /// Whether the next key needs a comma before it (something was written in this object).
  var needsComma = false

  var isEmpty: Bool { bytes.isEmpty }

  mutating func removeAll() {
    bytes.removeAll()
  }

  /// Appends lines encoded apart (outside a writer's lock), given as their bytes.
  mutating func append(lines: UnsafeRawBufferPointer) {
    bytes.append(lines.bindMemory(to: UInt8.self))
  }

  /// One object and its newline; `body` writes the fields.
  mutating func line(_ body: (inout JSONLineBuffer) -> Void) {
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
    body(&self)
    bytes.append(UInt8(ascii: "}"))
    bytes.append(UInt8(ascii: "\n"))
  }

  mutating func field(_ key: StaticString, _ value: String?) {
    guard let value, !value.isEmpty else { return }
    appendKey(key)
    appendString(value)
  }

  /// Text already in UTF-8 (an item's summary and content; see `FeedItem.summaryUTF8`).
  mutating func field(_ key: StaticString, utf8 value: [UInt8]?) {
    guard let value, !value.isEmpty else { return }
    appendKey(key)
    value.withUnsafeBufferPointer { appendString(utf8: $0) }
  }

  /// An instant as RFC 3339 text, written in place.
  mutating func field(_ key: StaticString, instant seconds: Int64) {
    appendKey(key)
    appendInstant(seconds)
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

  /// A number that may have a fraction (a duration in seconds); whole numbers without one.
  mutating func field(_ key: StaticString, number value: Double?) {
    guard let value, value.isFinite else { return }
    if value == value.rounded(), abs(value) < 1e15 {
      field(key, Int64(value))
    } else {
      appendKey(key)
      // Swift's shortest round-trip form ("1.5", "1e-05") is valid JSON for finite values.
      for byte in value.description.utf8 { bytes.append(byte) }
    }
  }

  mutating func field(_ key: StaticString, _ value: Bool?) {
    guard let value else { return }
    appendKey(key)
    appendStatic(value ? "true" : "false")
  }

  /// A boolean written only when true (`not_modified`, `permanent_redirect`).
  mutating func flag(_ key: StaticString, _ value: Bool) {
    if value { field(key, true) }
  }

  /// In one pass by index: a look for a non-empty string first and a `for … in` loop
  /// retained and released every string (categories and keywords, on every item).
  mutating func field(_ key: StaticString, _ values: [String]) {
    var first = true
    for index in values.indices where !values[index].isEmpty {
      if first {
        appendKey(key)
        bytes.append(UInt8(ascii: "["))
        first = false
      } else {
        bytes.append(UInt8(ascii: ","))
      }
      appendString(values[index])
    }
    if !first { bytes.append(UInt8(ascii: "]")) }
  }

  /// An array of objects, each written by `body`; objects that end up empty are left out, and
  /// so is the array when all are. Inlined up to the emptiness test: a caller that reads the
  /// list through a pointer into a record (`OutOfLine.withUnsafeValue`) then retains it only
  /// when it has entries (a podcast item's six empty lists were six retains and releases).
  @inline(__always)
  mutating func objects<T>(
    _ key: StaticString, _ values: [T], _ body: (inout JSONLineBuffer, T) -> Void
  ) {
    guard !values.isEmpty else { return }
    nonEmptyObjects(key, values, body)
  }

  private mutating func nonEmptyObjects<T>(
    _ key: StaticString, _ values: [T], _ body: (inout JSONLineBuffer, T) -> Void
  ) {
    let start = bytes.count
    let hadComma = needsComma
    appendKey(key)
    bytes.append(UInt8(ascii: "["))
    let arrayStart = bytes.count
    // By index: `for value in values` went through an iterator the optimiser did not see
    // through, and reading through `withUnsafeBufferPointer` cost 1% more instructions on the
    // RSS 2.0 feed (callgrind, 5 MB).
    for index in values.indices {
      let objectStart = bytes.count
      if objectStart > arrayStart { bytes.append(UInt8(ascii: ",")) }
      if !nested({ body(&$0, values[index]) }) { bytes.removeLast(from: objectStart) }
    }
    if bytes.count == arrayStart {
      bytes.removeLast(from: start)
      needsComma = hadComma
      return
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// A nested object, left out when `body` writes nothing.
  mutating func object(_ key: StaticString, _ body: (inout JSONLineBuffer) -> Void) {
    let start = bytes.count
    let hadComma = needsComma
    appendKey(key)
    if !nested(body) {
      bytes.removeLast(from: start)
      needsComma = hadComma
    }
  }

  /// A number that may have a fraction (coordinates, seconds, bitrates): an integer when it
  /// is whole, else Swift's shortest text that reads back as the same double.
  mutating func field(_ key: StaticString, _ value: Double?) {
    guard let value, value.isFinite else { return }
    appendKey(key)
    appendNumber(value)
  }

  /// A value written by `body` with the `append…` calls below (an array of arrays).
  mutating func field(_ key: StaticString, raw body: (inout JSONLineBuffer) -> Void) {
    appendKey(key)
    body(&self)
  }

  /// An array of string arrays (`itunes.categories`); left out when empty.
  mutating func field(_ key: StaticString, _ values: [[String]]) {
    guard !values.isEmpty else { return }
    appendKey(key)
    bytes.append(UInt8(ascii: "["))
    for (index, path) in values.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "["))
      for (position, term) in path.enumerated() {
        if position > 0 { bytes.append(UInt8(ascii: ",")) }
        appendString(term)
      }
      bytes.append(UInt8(ascii: "]"))
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// A string field whose key is data (an extension's attribute name).
  mutating func field(key: String, _ value: String) {
    appendKey(string: key)
    appendString(value)
  }

  /// A nested object under a key that is data (a namespace URI), left out when empty.
  mutating func object(key: String, _ body: (inout JSONLineBuffer) -> Void) {
    let start = bytes.count
    let hadComma = needsComma
    appendKey(string: key)
    if !nested(body) {
      bytes.removeLast(from: start)
      needsComma = hadComma
    }
  }

  /// An array of objects under a key that is data (an extension element's local name).
  mutating func objects<T>(
    key: String, _ values: [T], _ body: (inout JSONLineBuffer, T) -> Void
  ) {
    appendKey(string: key)
    bytes.append(UInt8(ascii: "["))
    for (index, value) in values.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      _ = nested { body(&$0, value) }
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// `[` … `]` around `body`'s elements, for `field(_:raw:)`.
  mutating func appendArray(count: Int, _ element: (inout JSONLineBuffer, Int) -> Void) {
    bytes.append(UInt8(ascii: "["))
    for index in 0..<count {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      element(&self, index)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  mutating func appendNumber(_ value: Double) {
    if value == value.rounded(), abs(value) < 1e15 {
      appendDecimal(Int64(value))
    } else if !appendShortFraction(value) {
      appendString(ascii: value.description)
    }
  }

  /// A number with one or two digits after the point (a soundbite's `1.5`, a chapter's
  /// `73.25`), written from its tenths or hundredths: `description` made a `String` through
  /// the general shortest-digits algorithm, about 570 instructions a number. When the
  /// integer of tenths (hundredths) over ten (a hundred) gives back the same double, that
  /// text reads back as it, and no shorter one does (the number is not whole, and tenths are
  /// tried first); below 10¹¹ the step between doubles is far below a hundredth, so no other
  /// text of that length does either: it is what `description` writes. False, with nothing
  /// written, for any other number.
  private mutating func appendShortFraction(_ value: Double) -> Bool {
    guard abs(value) >= 0.01, abs(value) < 1e11 else { return false }
    var scale: Int64 = 10
    var units = (value * 10).rounded()
    if units / 10 != value {
      scale = 100
      units = (value * 100).rounded()
      guard units / 100 == value else { return false }
    }
    let scaled = Int64(units)
    if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
    let magnitude = scaled.magnitude
    appendDecimal(Int64(magnitude / UInt64(scale)))
    bytes.append(UInt8(ascii: "."))
    let fraction = magnitude % UInt64(scale)
    if scale == 100, fraction < 10 { bytes.append(UInt8(ascii: "0")) }
    appendDecimal(Int64(fraction))
    return true
  }

  private mutating func appendString(ascii text: String) {
    var text = text
    text.withUTF8 { bytes.append($0) }
  }

  private mutating func appendKey(string key: String) {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    needsComma = true
    appendString(key)
    bytes.append(UInt8(ascii: ":"))
  }

  /// Writes `{…}` with `body`'s fields; false (with the bytes left for the caller to drop)
  /// when `body` wrote no field.
  private mutating func nested(_ body: (inout JSONLineBuffer) -> Void) -> Bool {
    bytes.append(UInt8(ascii: "{"))
    let fieldsStart = bytes.count
    needsComma = false
    body(&self)
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
    return bytes.count > fieldsStart + 1
  }

  /// A key already quoted with its colon (`"title":`, a table row's), after a comma when one is
  /// due. `quoted` is laid out as `RecordTable.PackedRow.quotedKey` is: the comma before it and
  /// readable memory up to the word past its end, so that `,"key":` is copied in whole words;
  /// the bytes past the key's end land in the room after the buffer's count and are
  /// overwritten by what follows.
  @inline(__always)
  mutating func appendQuotedKey(_ quoted: UnsafeBufferPointer<UInt8>) {
    let comma = needsComma
    needsComma = true
    let source = UnsafeRawPointer(comma ? quoted.baseAddress! - 1 : quoted.baseAddress!)
    let length = comma ? quoted.count &+ 1 : quoted.count
    bytes.append(atMost: length &+ 8) { out in
      let target = UnsafeMutableRawPointer(out)
      var at = 0
      repeat {
        target.storeBytes(
          of: source.loadUnaligned(fromByteOffset: at, as: UInt64.self), toByteOffset: at,
          as: UInt64.self)
        at &+= 8
      } while at < length
      return length
    }
  }

  /// An instant as RFC 3339 text, quoted, written in place.
  mutating func appendInstant(_ seconds: Int64) {
    let length = FeedDateParser.rfc3339Length
    bytes.append(atMost: length + 2) { out in
      out[0] = UInt8(ascii: "\"")
      FeedDateParser.writeRFC3339(seconds, to: out + 1)
      out[length + 1] = UInt8(ascii: "\"")
      return length + 2
    }
  }

  /// Fields written beforehand (`UnpulledEndTemplate`'s), copied as they are, their commas
  /// included: the field after them takes a comma when there were any.
  mutating func appendFragment(_ fragment: UnsafeBufferPointer<UInt8>) {
    guard !fragment.isEmpty else { return }
    bytes.append(fragment)
    needsComma = true
  }

  /// One byte of JSON syntax.
  @inline(__always)
  mutating func appendByte(_ byte: UInt8) { bytes.append(byte) }

  /// How many bytes are written, to drop back to when a value turns out empty.
  var count: Int { bytes.count }

  /// Drops the bytes from `count` on and restores the comma state from before them.
  mutating func dropBack(to count: Int, needsComma: Bool) {
    bytes.removeLast(from: count)
    self.needsComma = needsComma
  }

  /// A literal key, copied a byte at a time: keys are a few bytes long, and the copy through
  /// `withUTF8Buffer` and `memcpy` was about 120 instructions a key (a podcast item has some
  /// sixty keys; callgrind).
  @inline(__always)
  private mutating func appendKey(_ key: StaticString) {
    let comma = needsComma
    needsComma = true
    let name = key.utf8Start
    let length = key.utf8CodeUnitCount
    bytes.append(atMost: length &+ 4) { out in
      var at = 0
      if comma {
        out[0] = UInt8(ascii: ",")
        at = 1
      }
      out[at] = UInt8(ascii: "\"")
      at &+= 1
      var index = 0
      while index < length {
        out[at &+ index] = name[index]
        index &+= 1
      }
      at &+= length
      out[at] = UInt8(ascii: "\"")
      out[at &+ 1] = UInt8(ascii: ":")
      return at &+ 2
    }
  }

  mutating func appendStatic(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append($0) }
  }

  /// The digits written in place (`DecimalDigits`): appended one at a time and reversed, each
  /// was a capacity check (about 125 instructions a number; a podcast item has ten).
  mutating func appendDecimal(_ value: Int64) {
    bytes.append(atMost: DecimalDigits.maximumCount) { DecimalDigits.write(value, into: $0) }
  }

  /// A JSON string: `"` and `\` escaped, tab, LF and CR as escapes, other C0 controls removed,
  /// the rest raw UTF-8, copied in runs between the bytes that need escaping. Text is most of
  /// every record, so the scan looks at eight bytes at a time (most words have nothing to
  /// escape).
  mutating func appendString(_ value: String) {
    // The contiguous view reads a native or small string in place; `withUTF8` needs a `var`,
    // and that copy cost a retain and a release per field.
    let done: Void? = value.utf8.withContiguousStorageIfAvailable { appendString(utf8: $0) }
    if done == nil {
      var value = value
      value.withUTF8 { appendString(utf8: $0) }
    }
  }

  /// A string of at most sixteen bytes with nothing to escape (a type, a language, a name, a
  /// number kept as text: most of a podcast item's forty values) is written inline, read in
  /// two overlapping words; the call to the general writer cost about 60 instructions of
  /// set-up alone.
  @inline(__always)
  mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
    let count = utf8.count
    if count >= 1 && count <= 16, appendShortString(utf8.baseAddress!, count: count) { return }
    appendAnyString(utf8: utf8)
  }

  /// `appendString` for `count` (1 to 16) bytes with nothing to escape; false, with nothing
  /// written, when one of them needs escaping or removing.
  @inline(__always)
  private mutating func appendShortString(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
    let raw = UnsafeRawPointer(base)
    let head: UInt64
    let tail: UInt64
    let mask: UInt64
    if count >= 8 {
      head = raw.loadUnaligned(as: UInt64.self)
      tail = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      mask = Self.escapeMask(head) | Self.escapeMask(tail)
    } else {
      head = ByteWord.load(base, count: count)
      tail = 0
      // The zero bytes above the text are flagged too: only its own bytes count.
      mask = Self.escapeMask(head) & (UInt64.max &>> UInt64((8 &- count) &* 8))
    }
    guard mask == 0 else { return false }
    bytes.append(atMost: 18) { out in
      out[0] = UInt8(ascii: "\"")
      let text = UnsafeMutableRawPointer(out + 1)
      text.storeBytes(of: head, as: UInt64.self)
      if count > 8 { text.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self) }
      out[count &+ 1] = UInt8(ascii: "\"")
      return count &+ 2
    }
    return true
  }

  /// `appendString` for any text.
  private mutating func appendAnyString(utf8: UnsafeBufferPointer<UInt8>) {
    let count = utf8.count
    // Most strings (a URL, a name, a type) fit one block: quotes and text with one reservation.
    if count <= 4096 {
      bytes.append(atMost: count &* 6 &+ 10) { out in
        out[0] = UInt8(ascii: "\"")
        let written = count == 0 ? 0 : Self.escape(utf8, from: 0, to: count, into: out + 1)
        out[written &+ 1] = UInt8(ascii: "\"")
        return written &+ 2
      }
      return
    }
    bytes.append(UInt8(ascii: "\""))
    // In blocks, so that the room reserved for the worst case (six bytes for one) stays small
    // whatever the text's length.
    var offset = 0
    while offset < utf8.count {
      let start = offset
      let end = min(utf8.count, offset + 4096)
      bytes.append(atMost: (end - start) * 6 + 8) { out in
        Self.escape(utf8, from: start, to: end, into: out)
      }
      offset = end
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Writes `input[start..<end]` escaped to `out` and returns how many bytes it wrote. Each
  /// eight bytes are stored whole and the output moves on past those before the first that
  /// needs escaping (most words need none), so there is no per-run bookkeeping; `out` must
  /// have room for six bytes an input byte plus eight.
  @inline(__always)
  private static func escape(
    _ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
    into out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let base = input.baseAddress!
    var index = start
    var written = 0
    // Wrapping arithmetic: the indices are bounded by `end`, and overflow checks in this loop
    // were a fifth of its instructions.
    while index < end {
      // Sixteen bytes a turn while nothing needs escaping.
      while index &+ 16 <= end {
        let first = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        let second = UnsafeRawPointer(base + index + 8).loadUnaligned(as: UInt64.self)
        guard escapeMask(first) | escapeMask(second) == 0 else { break }
        UnsafeMutableRawPointer(out + written).storeBytes(of: first, as: UInt64.self)
        UnsafeMutableRawPointer(out + written + 8).storeBytes(of: second, as: UInt64.self)
        index &+= 16
        written &+= 16
      }
      guard index < end else { break }
      if index &+ 8 <= end {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
        let mask = escapeMask(word)
        if mask == 0 {
          index &+= 8
          written &+= 8
          continue
        }
        let clean = ByteWord.firstMatch(mask)
        index &+= clean
        written &+= clean
      } else {
        // The last one to seven bytes as one word too (most strings end this way; a byte at a
        // time was a third of writing a short one). The word's unused high bytes are zero,
        // which the mask flags, but only above the real bytes: the lowest flag is exact.
        let remaining = end &- index
        let word = ByteWord.load(base + index, count: remaining)
        UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
        let clean = Swift.min(ByteWord.firstMatch(escapeMask(word)), remaining)
        index &+= clean
        written &+= clean
        guard index < end else { break }
      }
      let byte = base[index]
      if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
        // C0 controls other than tab, LF and CR are removed from every string, whatever the
        // format gave them (docs/format.md): escaped, a reader would still print them.
      } else if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        written &+= writeEscape(byte, to: out + written)
      } else {
        out[written] = byte
        written &+= 1
      }
      index &+= 1
    }
    return written
  }

  /// The high bit of each of the eight bytes that may be below 0x20, a `"` or a `\`; the lowest
  /// set bit is exact, so `ByteWord.firstMatch` finds the first byte to escape.
  @inline(__always)
  private static func escapeMask(_ word: UInt64) -> UInt64 {
    ByteWord.matchesBelow(word, 0x20) | ByteWord.matches(word, UInt8(ascii: "\""))
      | ByteWord.matches(word, UInt8(ascii: "\\"))
  }

  /// `\"`, `\\`, `\n`, `\r` or `\t` (the only escapes left: other controls are removed);
  /// returns the length written.
  @inline(__always)
  private static func writeEscape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
    out[0] = UInt8(ascii: "\\")
    switch byte {
    case 0x0A: out[1] = UInt8(ascii: "n")
    case 0x0D: out[1] = UInt8(ascii: "r")
    case 0x09: out[1] = UInt8(ascii: "t")
    default: out[1] = byte
    }
    return 2
  }
}
