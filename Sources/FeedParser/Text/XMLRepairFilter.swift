import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A streaming byte filter in front of libxml2 that keeps real feeds out of libxml2's recovery
/// mode. libxml2 2.9.14, once it has seen one well-formedness error, silently drops every
/// entity reference that follows (even `&amp;`), and a C0 control byte makes it lose the
/// character after it; feeds in the wild carry bare `&` (`AT&T`, query strings in links),
/// HTML entities they never declare (`&nbsp;`, `&eacute;`) and stray control bytes pasted from
/// word processors. The filter rewrites exactly those, so the document libxml2 sees is
/// well-formed where the feed's only faults were these:
///
/// - C0 controls other than tab, LF and CR are dropped, everywhere (XML 1.0 §2.2 forbids them
///   even in CDATA); DEL (0x7F) is legal and kept.
/// - In character data and attribute values, an `&` that does not start a reference
///   (`&name;`, `&#123;`, `&#x1F;`) becomes `&amp;`.
/// - `&name;` naming an HTML5 entity that is neither one of XML's five nor declared in the
///   internal subset becomes numeric references (`&nbsp;` → `&#160;`).
/// - An unknown `&name;` becomes `&amp;name;`: docs/format.md keeps it as literal text.
/// - In character data and attribute values, a `<` that starts no markup (`a < b`) becomes
///   `&lt;`.
/// - A numeric reference to a character XML forbids is dropped when it names a C0 control (as
///   the raw byte would be) and becomes U+FFFD otherwise, as HTML reads it.
///
/// It works on the UTF-8 that every document becomes first (`IconvTranscoder`, `UTF8Repair`),
/// where `&`, `<`, `;`, `]` and controls are never part of a multi-byte character. (Reading
/// Shift_JIS bytes here would need care: a trail byte can be `]`.)
///
/// The inside of a CDATA section comes out as its own kind of piece (`Piece.cdataContent`),
/// without the `<![CDATA[` and `]]>` around it, and so does each long run of plain character
/// data (`Piece.characterData`): their bytes need no XML parsing, and `StreamingFeedParser`
/// hands them to the document builder directly when libxml2 is waiting where they go (60% of
/// a typical feed's bytes are CDATA, and libxml2 2.9.14 checks text character by character).
///
/// The output for any chunking of a document is byte-identical to the output for the whole:
/// keywords are matched a byte at a time, and only a reference still open at the end of a
/// chunk (`&nbs`), a `<` that ends one, or the `]` of a possible `]]>` is held back.
struct XMLRepairFilter {
  /// What a piece of output is.
  enum Piece {
    /// Markup and character data, for libxml2.
    case markup
    /// Bytes inside a CDATA section: text as it is.
    case cdataContent
    /// Character data between a `>` and the `<` after it that is `PlainCharacterData`: if
    /// libxml2 reads it in element content, it hands the builder exactly its decoded text.
    case characterData
  }

  /// Runs of character data shorter than this stay in the markup: handing one over splits the
  /// bytes pushed to libxml2, which costs more than libxml2 spends on a few bytes.
  static let shortestCharacterData = 64

  /// True once the filter changed a byte: the document was not well-formed as sent.
  private(set) var repaired = false

  private var markup: XMLMarkupTracker
  /// An `&…` whose end has not been seen; empty when none is open.
  private var pendingReference: [UInt8] = []
  /// A `<` in text whose next byte has not been seen: it is markup or a bare `<`.
  private var pendingLessThan = false
  private var referenceScan = XMLReferenceSyntax.Scan()
  /// Markup written since the last piece was handed on.
  private var output: [UInt8] = []

  init() {
    markup = XMLMarkupTracker()
    pendingReference.reserveCapacity(64)
  }

  /// Hands `emit` the repaired form of `input`, in order, as pieces (see `Piece`); a partial
  /// construct at the end of `input` (`&nbs`) is held back until the next call.
  mutating func process(
    _ input: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer, Piece) -> Void
  ) {
    output.reserveCapacity(input.count + 16)
    repair(input, emit)
    flushMarkup(emit)
  }

  private mutating func repair(
    _ input: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer, Piece) -> Void
  ) {
    let count = input.count
    var index = 0
    while index < count {
      if pendingLessThan {
        let byte = input[index]
        if Self.isDroppedControl(byte) {
          repaired = true
          index += 1
          continue
        }
        pendingLessThan = false
        if Self.startsMarkup(byte) {
          output.append(UInt8(ascii: "<"))
          markup.enterTag()
        } else {
          // `a < b`, `x<5`: a `<` that starts no markup is text (XML 1.0 §2.4 wants `&lt;`).
          repaired = true
          output.append(contentsOf: "&lt;".utf8)
        }
        continue
      }
      if !pendingReference.isEmpty {
        let byte = input[index]
        if Self.isDroppedControl(byte) {
          repaired = true
          index += 1
        } else if stepReference(byte) {
          index += 1
        }
        continue
      }
      if markup.isInText {
        // The hot loop: copy ordinary bytes in runs, stepping over tags and references that
        // need no repair, and stopping at anything else.
        let start = index
        while index < count {
          if index + 8 <= count {
            // Jump to the first `<`, `&` or control byte of the next eight, if any.
            let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let stops =
              ByteWord.matches(word, UInt8(ascii: "<")) | ByteWord.matches(word, UInt8(ascii: "&"))
              | ByteWord.matchesBelow(word, 0x20)
            if stops == 0 {
              index += 8
              continue
            }
            index += ByteWord.firstMatch(stops)
          }
          let byte = input[index]
          if byte == UInt8(ascii: "<") {
            // The byte after `<` is looked at again as text, as `XMLMarkupTracker` would.
            guard index + 1 < count, Self.startsTag(input[index + 1]) else { break }
            index += 1
          } else if byte == UInt8(ascii: "&") {
            guard let end = verbatimReferenceEnd(input, from: index) else { break }
            index = end
          } else if byte < 0x20 && Self.isDroppedControl(byte) {
            break
          } else {
            index += 1
          }
        }
        if index > start {
          output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[start..<index]))
        }
        guard index < count else { break }
        let byte = input[index]
        index += 1
        if byte == UInt8(ascii: "&") {
          pendingReference.append(byte)
          referenceScan = XMLReferenceSyntax.Scan()
        } else if byte == UInt8(ascii: "<") {
          pendingLessThan = true
        } else {
          repaired = true
        }
        continue
      }
      if let brackets = markup.cdataBrackets {
        index = stepCDATA(input, from: index, brackets: brackets, emit)
        continue
      }
      let runEnd = markup.verbatimEnd(input, from: index)
      if runEnd > index {
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<runEnd]))
        index = runEnd
        continue
      }
      let byte = input[index]
      if Self.isDroppedControl(byte) {
        repaired = true
        index += 1
      } else if markup.step(byte) {
        output.append(byte)
        index += 1
      }
    }
  }

  /// Hands on whatever was held back: an `&…` cut off by the end of the document is bare.
  mutating func finish(_ emit: (UnsafeRawBufferPointer, Piece) -> Void) {
    if !pendingReference.isEmpty { flushBareAmpersand() }
    // A document cut off after `<` stays cut off: libxml2 reports the truncation.
    if pendingLessThan { output.append(UInt8(ascii: "<")) }
    pendingLessThan = false
    // A document cut off after `]` in a CDATA section: the brackets were content.
    if let brackets = markup.cdataBrackets, brackets > 0 {
      emitBrackets(brackets, emit)
      markup.forgetCDATABrackets()
    }
    flushMarkup(emit)
  }

  // MARK: - CDATA sections

  /// Moves on inside a CDATA section from `start`; returns where to go on. Content is handed on
  /// as it is; each `]` is held until the bytes after it tell whether it begins the `]]>` that
  /// ends the section, which goes on as markup.
  private mutating func stepCDATA(
    _ input: UnsafeRawBufferPointer, from start: Int, brackets: Int,
    _ emit: (UnsafeRawBufferPointer, Piece) -> Void
  ) -> Int {
    let runEnd = markup.verbatimEnd(input, from: start)
    if runEnd > start {
      flushMarkup(emit)
      emit(UnsafeRawBufferPointer(rebasing: input[start..<runEnd]), .cdataContent)
      return runEnd
    }
    let byte = input[start]
    if Self.isDroppedControl(byte) {
      repaired = true
      return start + 1
    }
    if byte == UInt8(ascii: "]") {
      // `]]]>`: the first bracket is content.
      if brackets == 2 { emitBrackets(1, emit) }
      _ = markup.step(byte)
      return start + 1
    }
    if byte == UInt8(ascii: ">") && brackets == 2 {
      _ = markup.step(byte)
      output.append(contentsOf: "]]>".utf8)
      return start + 1
    }
    // The held brackets were content; the byte is read again as content.
    emitBrackets(brackets, emit)
    markup.forgetCDATABrackets()
    return start
  }

  private mutating func emitBrackets(
    _ count: Int, _ emit: (UnsafeRawBufferPointer, Piece) -> Void
  ) {
    flushMarkup(emit)
    let brackets: StaticString = "]]"
    emit(UnsafeRawBufferPointer(start: brackets.utf8Start, count: count), .cdataContent)
  }

  private mutating func flushMarkup(_ emit: (UnsafeRawBufferPointer, Piece) -> Void) {
    guard !output.isEmpty else { return }
    output.withUnsafeBytes { Self.emitMarkup($0, emit) }
    output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
  }

  /// Hands on markup, with each long plain run between a `>` and the next `<` as a piece of
  /// its own. Where such a run really is (element content, a comment, an attribute value) the
  /// filter does not know; `StreamingFeedParser` hands it over only when libxml2 has parsed
  /// every byte before it and is reading element content.
  private static func emitMarkup(
    _ bytes: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer, Piece) -> Void
  ) {
    guard let base = bytes.baseAddress else { return }
    var pieceStart = 0
    var searchFrom = 0
    while searchFrom < bytes.count,
      let found = memchr(base + searchFrom, Int32(UInt8(ascii: "<")), bytes.count - searchFrom)
    {
      let lessThan = UnsafeRawPointer(found) - base
      defer { searchFrom = lessThan + 1 }
      guard lessThan - searchFrom >= shortestCharacterData else { continue }
      var greaterThan = lessThan - 1
      while greaterThan >= searchFrom && bytes[greaterThan] != UInt8(ascii: ">") {
        greaterThan -= 1
      }
      guard greaterThan >= searchFrom else { continue }
      let textStart = greaterThan + 1
      let text = UnsafeRawBufferPointer(rebasing: bytes[textStart..<lessThan])
      guard text.count >= shortestCharacterData,
        !isElementContent(bytes, startTagEnd: greaterThan, endTagStart: lessThan),
        PlainCharacterData.isPlain(text)
      else { continue }
      emit(UnsafeRawBufferPointer(rebasing: bytes[pieceStart..<textStart]), .markup)
      emit(text, .characterData)
      pieceStart = lessThan
    }
    if pieceStart < bytes.count {
      emit(UnsafeRawBufferPointer(rebasing: bytes[pieceStart...]), .markup)
    }
  }

  /// True when the run between `>` and `<` looks like the whole text of an element, as in
  /// `<title a="b">text</title>`: it stays in the markup, where `StreamingFeedParser` reads that
  /// element without libxml2 (`SimpleMarkupScanner`) if libxml2 would only pass it on; as a
  /// piece of its own, the tags around it would go to libxml2. A guess from the bytes: wrong
  /// either way, it costs time, not correctness.
  private static func isElementContent(
    _ bytes: UnsafeRawBufferPointer, startTagEnd: Int, endTagStart: Int
  ) -> Bool {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), startTagEnd > 0,
      base[startTagEnd - 1] != UInt8(ascii: "/")
    else { return false }
    // The tag's `<`, looked for over a few kilobytes at most.
    var opening = startTagEnd - 1
    let limit = max(0, startTagEnd - 4096)
    while opening >= limit, base[opening] != UInt8(ascii: "<") { opening -= 1 }
    guard opening >= limit else { return false }
    let nameStart = opening + 1
    var nameEnd = nameStart
    while nameEnd < startTagEnd {
      let byte = base[nameEnd]
      if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
        || byte.isXMLSpace
      {
        break
      }
      nameEnd += 1
    }
    let length = nameEnd - nameStart
    guard length > 0, nameEnd == startTagEnd || base[nameEnd].isXMLSpace,
      endTagStart + length + 3 <= bytes.count,
      base[endTagStart + 1] == UInt8(ascii: "/"),
      memcmp(base + endTagStart + 2, base + nameStart, length) == 0
    else { return false }
    let after = base[endTagStart + 2 + length]
    return after == UInt8(ascii: ">") || after.isXMLSpace
  }

  // MARK: - References

  /// Moves an open reference on by one byte. Returns false when the byte ended the reference
  /// without belonging to it, so it must be read again as text.
  private mutating func stepReference(_ byte: UInt8) -> Bool {
    let longestName = max(HTMLEntities.longestName, markup.longestDeclaredName)
    switch referenceScan.next(byte, longestName: longestName) {
    case .extends:
      pendingReference.append(byte)
      return true
    case .ends:
      resolve(XMLReferenceSyntax.kind(of: pendingReference))
      pendingReference.removeAll(keepingCapacity: true)
      return true
    case .bare:
      flushBareAmpersand()
      return false
    }
  }

  /// Writes a complete reference (`pendingReference` plus the `;` that ended it).
  private mutating func resolve(_ kind: XMLReferenceSyntax.Kind) {
    switch kind {
    case .named(let name):
      if XMLReferenceSyntax.isPredefined(name) || markup.declaredEntities.contains(Array(name)) {
        output.append(contentsOf: pendingReference)
        output.append(UInt8(ascii: ";"))
      } else if let text = HTMLEntities.replacement(for: String(decoding: name, as: UTF8.self)) {
        repaired = true
        for scalar in text.unicodeScalars {
          XMLReferenceSyntax.appendCharacterReference(scalar.value, to: &output)
        }
      } else {
        // Contract: "an unknown &name; is kept as literal text".
        repaired = true
        output.append(contentsOf: "&amp;".utf8)
        output.append(contentsOf: name)
        output.append(UInt8(ascii: ";"))
      }
    case .numeric(let value, let wellFormed):
      if wellFormed && XMLReferenceSyntax.isXMLCharacter(value) {
        output.append(contentsOf: pendingReference)
        output.append(UInt8(ascii: ";"))
        return
      }
      repaired = true
      if XMLReferenceSyntax.isXMLCharacter(value) {
        XMLReferenceSyntax.appendCharacterReference(value, to: &output)
      } else if value >= 0x20 {
        XMLReferenceSyntax.appendCharacterReference(0xFFFD, to: &output)
      }
    }
  }

  private mutating func flushBareAmpersand() {
    repaired = true
    output.append(contentsOf: "&amp;".utf8)
    output.append(contentsOf: pendingReference.dropFirst())
    pendingReference.removeAll(keepingCapacity: true)
  }

  /// True when the byte after `<` makes it a start or end tag (a name-start character of XML
  /// 1.0 §2.3, any byte of a non-ASCII one, or `/`): the fast path steps over those; `!` and
  /// `?` go to `XMLMarkupTracker`, anything else is a bare `<`.
  @inline(__always)
  private static func startsTag(_ next: UInt8) -> Bool {
    (next | 0x20) &- 0x61 < 26 || next == UInt8(ascii: "/") || next == UInt8(ascii: "_")
      || next == UInt8(ascii: ":") || next >= 0x80
  }

  /// True when the byte after `<` makes it markup of any kind.
  @inline(__always)
  private static func startsMarkup(_ next: UInt8) -> Bool {
    startsTag(next) || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
  }

  /// The end (after `;`) of a reference starting at `start` that lies wholly in `input` and
  /// that the filter keeps as it is (`&amp;`, `&#233;`, a declared entity); nil for anything
  /// else, which then goes through the byte-at-a-time path with the same result.
  @inline(__always)
  private func verbatimReferenceEnd(_ input: UnsafeRawBufferPointer, from start: Int) -> Int? {
    let longestName = max(HTMLEntities.longestName, markup.longestDeclaredName)
    guard let end = XMLReferenceSyntax.completeEnd(input, from: start, longestName: longestName)
    else {
      return nil
    }
    let body = UnsafeRawBufferPointer(rebasing: input[(start + 1)..<(end - 1)])
    if XMLReferenceSyntax.character(ofBody: body) != nil { return end }
    guard body[0] != UInt8(ascii: "#"), !markup.declaredEntities.isEmpty,
      markup.declaredEntities.contains(Array(body))
    else {
      return nil
    }
    return end
  }

  /// C0 controls other than tab, LF and CR: not XML 1.0 characters anywhere (§2.2).
  @inline(__always)
  private static func isDroppedControl(_ byte: UInt8) -> Bool {
    byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
  }
}
