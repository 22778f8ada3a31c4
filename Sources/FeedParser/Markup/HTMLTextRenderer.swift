import FeedPullSupport

/// HTML as plain text, for `--html text` and for terminals: tags removed, references decoded,
/// the text of `script`, `style` and other elements a reader never sees dropped, block
/// elements as line breaks (a blank line around paragraphs, headings, quotes, lists and tables;
/// one line break at `br`, list items, table rows), white space runs outside `pre` as one
/// space, at most one blank line in a row, no white space at either end.
///
/// One value is reused from text to text (its buffers keep their capacity); not thread-safe.
struct HTMLTextRenderer {
  private var output: [UInt8] = []
  private var attributeStorage: [HTMLTokenizer.Attribute] = []

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
    output.removeAll(keepingCapacity: true)
    output.reserveCapacity(input.count)
    var run = Run()
    var tokenizer = HTMLTokenizer(input, reusing: attributeStorage)
    defer { attributeStorage = tokenizer.takeAttributeStorage() }
    let base = input.baseAddress
    while let token = tokenizer.next() {
      switch token {
      case .text(let range):
        guard run.hiddenDepth == 0 else { continue }
        text(
          UnsafeBufferPointer(rebasing: input[..<range.upperBound]), from: range.lowerBound, &run)
      case .ignored:
        continue
      case .startTag(let name, _, let selfClosing):
        let info = Self.info(base!, name)
        if info.contains(.rawText) || info.contains(.droppedWithContent) {
          // Their content is not markup to read: skip it whole.
          if !selfClosing, info.contains(.rawText) { tokenizer.skipRawText(named: name) }
          if !selfClosing, info.contains(.droppedWithContent) { run.hiddenDepth += 1 }
          continue
        }
        if info.contains(.noText) && !selfClosing && !info.contains(.void) {
          run.hiddenDepth += 1
        }
        if info.contains(.preformatted) && !selfClosing { run.preDepth += 1 }
        breakLine(info, isBR: Self.isBR(base!, name), &run)
      case .endTag(let name, _):
        let info = Self.info(base!, name)
        if info.contains(.noText) || info.contains(.droppedWithContent),
          !info.contains(.rawText), run.hiddenDepth > 0
        {
          run.hiddenDepth -= 1
        }
        if info.contains(.preformatted) && run.preDepth > 0 { run.preDepth -= 1 }
        if !Self.isBR(base!, name) { breakLine(info, isBR: false, &run) }
      }
    }
    let result = output
    output = []
    return result
  }

  private static func info(_ base: UnsafePointer<UInt8>, _ name: Range<Int>)
    -> HTMLVocabulary.ElementInfo
  {
    HTMLVocabulary.elements.index(base + name.lowerBound, name.count).map {
      HTMLVocabulary.elements.entries[$0].info
    } ?? []
  }

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
  /// outside `pre`.
  private mutating func text(_ input: UnsafeBufferPointer<UInt8>, from start: Int, _ run: inout Run)
  {
    var index = start
    while index < input.count {
      var byte = input[index]
      var scalarBytes: [UInt8]? = nil
      var next = index + 1
      if byte == UInt8(ascii: "&") {
        switch HTMLCharacterReference.read(input, at: index) {
        case .keep(let end):
          var decoded: [UInt8] = []
          HTMLCharacterReference.appendDecoded(input, from: index, to: end, into: &decoded)
          scalarBytes = decoded
          next = end
        case .replace(let end, let scalar):
          var decoded: [UInt8] = []
          if let scalar { HTMLCharacterReference.appendUTF8(scalar, to: &decoded) }
          scalarBytes = decoded
          next = end
        case .literal:
          break
        }
      }
      if let scalarBytes {
        // A decoded `&nbsp;` is text, not white space to fold.
        if !scalarBytes.isEmpty { emit(scalarBytes, &run) }
        index = next
        continue
      }
      if byte.isHTMLSpace && run.preDepth == 0 {
        if !output.isEmpty && run.pendingBreaks == 0 { run.pendingSpace = true }
        index += 1
        continue
      }
      if byte == 0x0D && run.preDepth > 0 {
        // CR LF and lone CR as LF.
        byte = 0x0A
        if index + 1 < input.count && input[index + 1] == 0x0A { next = index + 2 }
      }
      if byte == 0x0A && run.preDepth > 0 {
        run.pendingBreaks = min(2, run.pendingBreaks + 1)
        if output.isEmpty { run.pendingBreaks = 0 }
        index = next
        continue
      }
      // A run of ordinary bytes at once.
      var end = next
      while end < input.count {
        let following = input[end]
        if following == UInt8(ascii: "&") || following.isHTMLSpace { break }
        end += 1
      }
      emit(input[index..<end], &run)
      index = end
    }
  }

  /// Writes text, after the breaks or the space owed before it.
  private mutating func emit<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ run: inout Run) {
    if !output.isEmpty {
      if run.pendingBreaks > 0 {
        for _ in 0..<run.pendingBreaks { output.append(0x0A) }
      } else if run.pendingSpace {
        output.append(UInt8(ascii: " "))
      }
    }
    run.pendingBreaks = 0
    run.pendingSpace = false
    output.append(contentsOf: bytes)
  }
}
