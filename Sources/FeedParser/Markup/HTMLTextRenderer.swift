import FeedPullSupport

/// HTML as plain text, for `--html text` and for terminals: tags removed, references decoded,
/// the text of `script`, `style` and other elements a reader never sees dropped, block
/// elements as line breaks (a blank line around paragraphs, headings, quotes, lists and tables;
/// one line break at `br`, list items, table rows), white space runs outside `pre` as one
/// space, at most one blank line in a row, no white space at either end.
///
/// One value is reused from text to text (its buffers keep their capacity); not thread-safe.
struct HTMLTextRenderer {
  private let output = HTMLRenderedBytes()
  private let attributeStorage = HTMLAttributeStorage()
  /// The elements opened and not yet closed (`HTMLOpenElements`), and how many.
  private let open = HTMLOpenElements()
  private var openCount = 0
  /// Whether start tags are read only to their end (`HTMLTokenizer.startTagExtent`) where they
  /// can be; tests turn it off to compare with the tokenizer's reading.
  var usesTagExtents = true

  /// What the renderer knows as it goes through one text.
  private struct Run {
    /// Line breaks owed before the next text (0, 1, or 2 for a blank line).
    var pendingBreaks = 0
    /// A space owed before the next text (white space was collapsed).
    var pendingSpace = false
    /// Open elements whose text is dropped, and open `pre` elements.
    var hiddenDepth = 0
    var preDepth = 0
  }

  /// The plain text of `input`.
  mutating func render(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    renderInPlace(input)
    return output.array()
  }

  /// The plain text of `input` lent to `body` (valid only during the call): the field
  /// treatment's way, which copies the text once, into the record.
  mutating func withRendered<Result>(
    _ input: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    renderInPlace(input)
    return output.withBytes(body)
  }

  /// Renders `input` into `output`.
  private mutating func renderInPlace(_ input: UnsafeBufferPointer<UInt8>) {
    output.reset(expecting: input.count)
    var run = Run()
    openCount = 0
    var tokenizer = HTMLTokenizer(input, storage: attributeStorage)
    let base = input.baseAddress
    while true {
      if let (row, end) = open.closingTag(at: tokenizer.position, in: input, openCount, elements) {
        // `</p>`: the innermost element ends, its row known without tokenizing the tag.
        openCount -= 1
        tokenizer.skip(to: end)
        endElement(elements.info(row), isBR: false, &run)
        continue
      }
      if usesTagExtents, let (name, end, selfClosing) = tokenizer.startTagExtent() {
        if end == name.upperBound + 1 {
          let nameStart = base! + name.lowerBound
          let key = name.count <= 8 ? ByteWord.load(nameStart, count: name.count) : 0
          if name.count == lastPlainTag.count && key == lastPlainTag.key {
            // The same bytes as the last one taken (`<p>` after `<p>`): the same row.
            tokenizer.skip(to: end)
            let row = lastPlainTag.row
            startElement(row, elements.info(row), isBR: lastPlainTag.isBR, &run)
            continue
          }
          if name.count == otherPlainTag.count && key == otherPlainTag.key {
            // The one before (`<p>` after `<blockquote>`, itself after `<p>`).
            swap(&lastPlainTag, &otherPlainTag)
            tokenizer.skip(to: end)
            let row = lastPlainTag.row
            startElement(row, elements.info(row), isBR: lastPlainTag.isBR, &run)
            continue
          }
          if let row = recentNames.row(nameStart, name.count, in: elements, part: 0) {
            // `<p>`: no attribute to read past.
            let info = elements.info(row)
            if !info.contains(.rawText) && !info.contains(.droppedWithContent) {
              tokenizer.skip(to: end)
              let isBR = Self.isBR(base!, name)
              if name.count <= 8 {
                otherPlainTag = lastPlainTag
                lastPlainTag = (key, name.count, row, isBR)
              }
              startElement(row, info, isBR: isBR, &run)
              continue
            }
          }
        }
        // Attributes the renderer does not read: only where the tag ends.
        tokenizer.skip(to: end)
        startTag(name, selfClosing: selfClosing, base!, &tokenizer, &run)
        continue
      }
      guard let token = tokenizer.next() else { break }
      switch token {
      case .text(let range):
        guard run.hiddenDepth == 0 else { continue }
        text(
          UnsafeBufferPointer(rebasing: input[..<range.upperBound]), from: range.lowerBound, &run)
      case .ignored:
        continue
      case .startTag(let name, _, let selfClosing):
        startTag(name, selfClosing: selfClosing, base!, &tokenizer, &run)
      case .endTag(let name, _):
        let nameStart = base! + name.lowerBound
        let row =
          open.closedRow(nameStart, name.count, &openCount, elements)
          ?? recentNames.row(nameStart, name.count, in: elements, part: 0)
        let info = row.map { elements.info($0) } ?? []
        endElement(info, isBR: Self.isBR(base!, name), &run)
      }
    }
  }

  /// A start tag named `name` whose end the tokenizer has passed.
  @inline(__always)
  private mutating func startTag(
    _ name: Range<Int>, selfClosing: Bool, _ base: UnsafePointer<UInt8>,
    _ tokenizer: inout HTMLTokenizer, _ run: inout Run
  ) {
    let row = recentNames.row(base + name.lowerBound, name.count, in: elements, part: 0)
    let info = row.map { elements.info($0) } ?? []
    if info.contains(.rawText) || info.contains(.droppedWithContent) {
      // Their content is not markup to read: skip it whole.
      if !selfClosing, info.contains(.rawText) { tokenizer.skipRawText(named: name) }
      if !selfClosing, info.contains(.droppedWithContent) { run.hiddenDepth += 1 }
      return
    }
    if let row, !selfClosing {
      startElement(row, info, isBR: Self.isBR(base, name), &run)
    } else {
      breakLine(info, isBR: Self.isBR(base, name), &run)
    }
  }

  /// The start tag (not self-closing) of element `row`, described by `info`.
  @inline(__always)
  private mutating func startElement(
    _ row: Int, _ info: HTMLVocabulary.ElementInfo, isBR: Bool, _ run: inout Run
  ) {
    if !info.contains(.void) {
      open.push(row, &openCount)
      if info.contains(.noText) { run.hiddenDepth += 1 }
    }
    if info.contains(.preformatted) { run.preDepth += 1 }
    breakLine(info, isBR: isBR, &run)
  }

  /// An end tag of an element described by `info`.
  @inline(__always)
  private func endElement(_ info: HTMLVocabulary.ElementInfo, isBR: Bool, _ run: inout Run) {
    if info.contains(.noText) || info.contains(.droppedWithContent), !info.contains(.rawText),
      run.hiddenDepth > 0
    {
      run.hiddenDepth -= 1
    }
    if info.contains(.preformatted) && run.preDepth > 0 { run.preDepth -= 1 }
    if !isBR { breakLine(info, isBR: false, &run) }
  }

  /// The last start tag without attributes taken whole, by its bytes (a name of up to eight,
  /// in the low end of `key`; `count` 0 for none yet): most are `<p>` again, known without a
  /// look-up.
  private var lastPlainTag: (key: UInt64, count: Int, row: Int, isBR: Bool) = (0, 0, 0, false)
  /// The one taken before `lastPlainTag`, by its bytes: feed HTML alternates two (`<p>` and
  /// `<blockquote>`) as often as it repeats one.
  private var otherPlainTag: (key: UInt64, count: Int, row: Int, isBR: Bool) = (0, 0, 0, false)

  /// The rows of the element names met last (`img`, `a`, the end tags that close no
  /// innermost element).
  private let recentNames = HTMLRecentNames(parts: 1)

  /// The elements' table, held here: a `static let` read costs a `swift_once` call a tag.
  private let elements = HTMLVocabulary.elements

  private static func isBR(_ base: UnsafePointer<UInt8>, _ name: Range<Int>) -> Bool {
    name.count == 2 && base[name.lowerBound] | 0x20 == UInt8(ascii: "b")
      && base[name.lowerBound + 1] | 0x20 == UInt8(ascii: "r")
  }

  /// A block boundary: a line break owed, or a blank line; `br` adds one break each time.
  private func breakLine(_ info: HTMLVocabulary.ElementInfo, isBR: Bool, _ run: inout Run) {
    guard run.hiddenDepth == 0 else { return }
    if isBR {
      run.pendingBreaks = min(2, run.pendingBreaks + 1)
    } else if info.contains(.paragraphBlock) {
      run.pendingBreaks = 2
    } else if info.contains(.lineBlock) {
      run.pendingBreaks = max(run.pendingBreaks, 1)
    } else {
      return
    }
    run.pendingSpace = false
  }

  /// Character data from `start` to the end of `input`, decoded, its white space folded
  /// outside `pre`. Copied a run at a time: a run ends at a reference or at white space other
  /// than one space between two words, which most text has little of.
  private mutating func text(
    _ input: UnsafeBufferPointer<UInt8>, from start: Int, _ run: inout Run
  ) {
    guard let base = input.baseAddress else { return }
    let end = input.count
    var index = start
    while index < end {
      let byte = base[index]
      if byte == UInt8(ascii: "&") {
        index = reference(input, at: index, &run)
        continue
      }
      if run.preDepth == 0 {
        if byte.isHTMLSpace {
          if !output.isEmpty && run.pendingBreaks == 0 { run.pendingSpace = true }
          index += 1
          continue
        }
      } else if byte == 0x0A || byte == 0x0D {
        // A line break inside `pre`: CR LF and a lone CR count as one.
        let isCRLF = byte == 0x0D && index + 1 < end && base[index + 1] == 0x0A
        index += isCRLF ? 2 : 1
        if !output.isEmpty { run.pendingBreaks = min(2, run.pendingBreaks + 1) }
        run.pendingSpace = false
        continue
      }
      let runEnd = Self.runEnd(base, from: index + 1, to: end, preformatted: run.preDepth > 0)
      emit(UnsafeBufferPointer(start: base + index, count: runEnd - index), &run)
      index = runEnd
    }
  }

  /// Where a run of text that is copied as it is ends: at `&`, at white space other than one
  /// space followed by a printable byte (outside `pre`), at a line break (inside `pre`).
  @inline(__always)
  private static func runEnd(
    _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, preformatted: Bool
  ) -> Int {
    var index = start
    if !preformatted {
      // Sixteen bytes a turn, and the sixteen after each byte to tell what follows it: prose
      // has a space every few bytes, and testing each one a byte at a time cost more than the
      // copy. The vectors' tests are exact: a turn that finds a stop goes on eight bytes at a
      // time below.
      let blank = SIMD16<UInt8>(repeating: 0x21)
      let control = SIMD16<UInt8>(repeating: 0x20)
      let ampersand = SIMD16<UInt8>(repeating: UInt8(ascii: "&"))
      @inline(__always) func stops(at index: Int) -> SIMDMask<SIMD16<Int8>> {
        let bytes = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
        let next = UnsafeRawPointer(base + (index &+ 1)).loadUnaligned(as: SIMD16<UInt8>.self)
        let isAmpersand = bytes .== ampersand
        let blankOrAmpersand = (bytes .< blank) .| isAmpersand
        let nextBlankOrAmpersand = (next .< blank) .| (next .== ampersand)
        return isAmpersand .| (bytes .< control) .| (blankOrAmpersand .& nextBlankOrAmpersand)
      }
      // Thirty-two bytes a turn while they last (one test of the two halves' stops, one
      // branch), then sixteen.
      while index &+ 33 <= end {
        if HTMLTokenizer.anyLane(stops(at: index) .| stops(at: index &+ 16)) { break }
        index &+= 32
      }
      while index &+ 17 <= end {
        if HTMLTokenizer.anyLane(stops(at: index)) { break }
        index &+= 16
      }
      while index &+ 8 <= end {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        let stops = runStops(word) & 0x0080_8080_8080_8080
        if stops != 0 { return index &+ ByteWord.firstMatch(stops) }
        index &+= 7
      }
    }
    while index < end {
      if index &+ 8 <= end {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        let mask = ByteWord.matches(word, UInt8(ascii: "&")) | ByteWord.matchesBelow(word, 0x21)
        if mask == 0 {
          index &+= 8
          continue
        }
        index &+= ByteWord.firstMatch(mask)
      }
      let byte = base[index]
      if byte == UInt8(ascii: "&") { return index }
      if byte > 0x20 {
        index &+= 1
        continue
      }
      if preformatted {
        if byte == 0x0A || byte == 0x0D { return index }
      } else {
        guard byte == 0x20, index &+ 1 < end, base[index &+ 1] > 0x20,
          base[index &+ 1] != UInt8(ascii: "&")
        else { return index }
      }
      index &+= 1
    }
    return end
  }

  /// The high bit of each byte of `word` where a run outside `pre` may end: `&`, white space
  /// other than a space, and white space followed by white space or `&` (the next byte's
  /// verdict is the top byte's only for the seven below it). `ByteWord`'s tests flag no byte
  /// they should not below the first they rightly flag, and miss none; a byte flagged above
  /// it only ends a run early, which costs a call and changes nothing written.
  @inline(__always)
  private static func runStops(_ word: UInt64) -> UInt64 {
    let ampersand = ByteWord.matches(word, UInt8(ascii: "&"))
    let blankOrAmpersand = ByteWord.matchesBelow(word, 0x21) | ampersand
    return ampersand | ByteWord.matchesBelow(word, 0x20)
      | (blankOrAmpersand & (blankOrAmpersand &>> 8))
  }

  /// A reference at `index`: its characters written as text (a decoded `&nbsp;` is text, not
  /// white space to fold), or a literal `&`; returns where the text goes on.
  private mutating func reference(
    _ input: UnsafeBufferPointer<UInt8>, at index: Int, _ run: inout Run
  ) -> Int {
    let decoded = HTMLCharacterReference.decode(input, at: index)
    guard decoded.count > 0 else { return decoded.end }
    // A few bytes, appended one at a time (a buffer for them cost more); the word's lowest
    // byte is the first.
    writeSeparator(&run)
    var utf8 = decoded.utf8
    for _ in 0..<decoded.count {
      output.append(UInt8(truncatingIfNeeded: utf8))
      utf8 &>>= 8
    }
    return decoded.end
  }

  /// Writes text, after the breaks or the space owed before it.
  private mutating func emit(_ bytes: UnsafeBufferPointer<UInt8>, _ run: inout Run) {
    writeSeparator(&run)
    output.append(bytes)
  }

  /// The line breaks or the space owed before the next text.
  @inline(__always)
  private mutating func writeSeparator(_ run: inout Run) {
    if !output.isEmpty {
      if run.pendingBreaks > 0 {
        for _ in 0..<run.pendingBreaks { output.append(0x0A) }
      } else if run.pendingSpace {
        output.append(UInt8(ascii: " "))
      }
    }
    run.pendingBreaks = 0
    run.pendingSpace = false
  }
}
