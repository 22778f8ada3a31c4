import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// HTML made safe to show in a page, by feedparser's rules (docs/format.md, "HTML"): elements
/// outside `HTMLVocabulary`'s lists lose their tags but keep their content, sanitized in turn;
/// `script` and `style` go with their content, `applet` with everything inside it; attributes
/// outside the lists go, `style` keeps only safe CSS (`CSSStyleSanitizer`); a URI attribute is
/// resolved against the base where feedparser resolves it, and kept empty when its scheme is
/// not an acceptable one (`URISchemes`); comments, declarations and processing instructions go.
/// What is kept is written the usual way: names in lower case (SVG's in its own case),
/// attribute values double-quoted with `&`, `<`, `>`, `"` escaped, void elements without an
/// end tag, text with `<`, `>` and stray `&` escaped.
///
/// Most feed HTML is already like that, so the output is made lazily: nothing is copied until
/// the first change, and a text that needs none comes back as nil (the caller keeps its bytes).
/// One pass over the bytes, no allocation per tag or attribute but for the URIs it rewrites.
/// One value is reused from text to text (its buffers keep their capacity); not thread-safe.
struct HTMLSanitizer {
  /// The markup flavour of the text: XHTML (Atom `type="xhtml"`, serialized XML) or HTML.
  enum Flavour {
    case html, xhtml
  }

  private var output: [UInt8] = []
  /// The text being sanitized, valid only during `sanitize`.
  private var input = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  /// How much of the input `output` already stands for; the rest is copied at the next change.
  private var copied = 0
  private var changed = false
  private let attributeStorage = HTMLAttributeStorage()
  /// The attributes of the tag being read that are kept (and the names seen), in memory kept
  /// from tag to tag; their new values are in `values`.
  private let scratch = Scratch()
  private var keptCount = 0
  /// The elements opened and not yet closed (`HTMLOpenElements`), and how many.
  private let open = HTMLOpenElements()
  private var openCount = 0
  private var values: [UInt8] = []
  private var decoded: [UInt8] = []
  /// Start tags with attributes kept as written, recognised without tokenizing them.
  private let keptStartTags = HTMLKeptStartTags()
  /// False to read every start tag the full way: the tests compare the two.
  var usesKeptStartTags = true
  /// False to read text through the tokenizer (`passText` not used): the tests compare the
  /// two.
  var usesTextRuns = true
  /// False to decide every tag with a plain link anew (`HTMLRewrittenStartTags` not used): the
  /// tests compare the two.
  var usesRewrittenTags = true
  /// The tags with plain links decided lately, and what was written for them.
  private let rewrittenTags = HTMLRewrittenStartTags()
  /// False to sanitize every `style` value anew: the tests compare the two.
  var usesRememberedStyle = true
  /// The last `style` value sanitized, and what was made of it.
  private let rememberedStyle = HTMLRememberedStyle()

  fileprivate struct KeptAttribute {
    /// The row of `HTMLVocabulary.attributes`.
    var row: Int
    /// The value to write (a range of `values`), or nil to write the input's value as it is.
    var newValue: Range<Int>?
    /// The input's value (nil for a bare name).
    var value: Range<Int>?
  }

  /// The vocabulary's tables and rows, held here: a `static let` read costs a `swift_once`
  /// call, and every tag reads several.
  private let elements = HTMLVocabulary.elements
  private let attributeTable = HTMLVocabulary.attributes
  private let svgRow = HTMLVocabulary.svgRow
  private let mathRow = HTMLVocabulary.mathRow
  private let xmlnsRow = HTMLVocabulary.xmlnsRow
  private let xmlnsXLinkRow = HTMLVocabulary.xmlnsXLinkRow

  init() {}

  /// The sanitized text, or nil when `input` is safe as it is. `base` is what relative URIs
  /// are resolved against (nil: they stay relative).
  mutating func sanitize(
    _ input: UnsafeBufferPointer<UInt8>, base: String?, flavour: Flavour
  ) -> [UInt8]? {
    sanitizeInPlace(input, base: base, flavour: flavour) ? output : nil
  }

  /// The sanitized text lent to `body` (valid only during the call), or nil when `input` is
  /// safe as it is: the field treatment's way, which copies the text once, into the record.
  mutating func withSanitized<Result>(
    _ input: UnsafeBufferPointer<UInt8>, base: String?, flavour: Flavour,
    _ body: (UnsafeBufferPointer<UInt8>?) -> Result
  ) -> Result {
    guard sanitizeInPlace(input, base: base, flavour: flavour) else { return body(nil) }
    return output.withUnsafeBufferPointer { body($0) }
  }

  /// Sanitizes `input` into `output`; false when it is safe as it is (`output` then holds
  /// nothing to read).
  private mutating func sanitizeInPlace(
    _ input: UnsafeBufferPointer<UInt8>, base: String?, flavour: Flavour
  ) -> Bool {
    var run = Run(base: base, flavour: flavour)
    self.input = input
    defer { self.input = UnsafeBufferPointer(start: nil, count: 0) }
    if !output.isEmpty { output.removeAll(keepingCapacity: true) }
    copied = 0
    changed = false
    openCount = 0
    var tokenizer = HTMLTokenizer(input, storage: attributeStorage)
    while true {
      if run.appletDepth == 0 {
        let position = tokenizer.position
        if usesTextRuns, position < input.count, input[position] != UInt8(ascii: "<") {
          tokenizer.skip(to: passText(from: position))
          continue
        }
        if let end = closesInnermost(at: position) {
          tokenizer.skip(to: end)
          continue
        }
        if run.svgDepth == 0 && run.mathDepth == 0 {
          if let name = tokenizer.plainStartTag(), opensPlainElement(name) {
            tokenizer.skip(to: name.upperBound + 1)
            continue
          }
          if usesKeptStartTags, usesRewrittenTags, position &+ 1 < input.count,
            input[position] == UInt8(ascii: "<"), input[position &+ 1].isASCIILetter,
            let end = writesRemembered(at: position, base: run.base)
          {
            tokenizer.skip(to: end)
            continue
          }
          if usesKeptStartTags, position &+ 1 < input.count,
            input[position] == UInt8(ascii: "<"), input[position &+ 1].isASCIILetter,
            let tag = keptStartTags.keptTag(at: position, in: input),
            tag.links == 0 || keepsLinks(of: tag, at: position, base: run.base)
          {
            if tag.opens { open.push(tag.row, &openCount) }
            tokenizer.skip(to: tag.end)
            continue
          }
        }
      }
      guard let token = tokenizer.next() else { break }
      switch token {
      case .text(let range):
        if run.appletDepth > 0 {
          drop(range)
        } else {
          let first = tokenizer.textFirstSpecial(range)
          if first < range.upperBound { text(first..<range.upperBound) }
        }
      case .ignored(let range):
        drop(range)
      case .startTag(let name, let tag, let selfClosing):
        startTag(name, tag, selfClosing, &tokenizer, &run)
      case .endTag(let name, let tag):
        endTag(name, tag, &run)
      }
    }
    guard changed else { return false }
    output.append(contentsOf: UnsafeBufferPointer(rebasing: input[copied...]))
    return true
  }

  /// Just past `</name>` at `start` when it closes the innermost open element, an HTML one
  /// kept as it is, exactly as the sanitizer writes it (most end tags): the element is then
  /// closed and the tag stays, without tokenizing it.
  @inline(__always)
  private mutating func closesInnermost(at start: Int) -> Int? {
    guard let (row, end) = open.closingTag(at: start, in: input, openCount, elements) else {
      return nil
    }
    let info = elements.info(row)
    guard info.contains(.html), !info.contains(.void), row != svgRow, row != mathRow else {
      return nil
    }
    openCount -= 1
    return end
  }

  /// True when `<name>` (no attribute, outside SVG, MathML and `applet`) is the start tag of
  /// an HTML element kept as it is, written exactly as the sanitizer writes it (most start
  /// tags): the element is then opened and the tag stays, without tokenizing it.
  @inline(__always)
  private mutating func opensPlainElement(_ name: Range<Int>) -> Bool {
    let nameStart = input.baseAddress! + name.lowerBound
    let key = name.count <= 8 ? ByteWord.load(nameStart, count: name.count) : 0
    if name.count == lastPlainTag.count && key == lastPlainTag.key {
      // The same bytes as the last one taken (`<p>` after `<p>`): the same answer.
      if lastPlainTag.opens { open.push(lastPlainTag.row, &openCount) }
      return true
    }
    if name.count == otherPlainTag.count && key == otherPlainTag.key {
      // The one before (`<p>` after `<blockquote>`, itself after `<p>`).
      swap(&lastPlainTag, &otherPlainTag)
      if lastPlainTag.opens { open.push(lastPlainTag.row, &openCount) }
      return true
    }
    guard let row = scratch.names.row(nameStart, name.count, in: elements, part: 1) else {
      return false
    }
    let info = elements.info(row)
    guard info.contains(.html), !info.contains(.rawText), !info.contains(.droppedWithContent),
      row != svgRow, row != mathRow, elements.isSpelled(row, nameStart, name.count)
    else { return false }
    let opens = !info.contains(.void)
    if opens { open.push(row, &openCount) }
    if name.count <= 8 {
      otherPlainTag = lastPlainTag
      lastPlainTag = (key, name.count, row, opens)
    }
    return true
  }

  /// The last start tag `opensPlainElement` took, by its bytes (a name of up to eight, in the
  /// low end of `key`; `count` 0 for none yet): most are `<p>` again, known without a look-up.
  private var lastPlainTag: (key: UInt64, count: Int, row: Int, opens: Bool) = (0, 0, 0, false)
  /// The one taken before `lastPlainTag`, by its bytes: feed HTML alternates two (`<p>` and
  /// `<blockquote>`) as often as it repeats one.
  private var otherPlainTag: (key: UInt64, count: Int, row: Int, opens: Bool) = (0, 0, 0, false)

  /// What one text's sanitizing knows as it goes.
  private struct Run {
    let base: String?
    let flavour: Flavour
    /// Open `svg` and `math` elements: their vocabularies apply inside.
    var svgDepth = 0
    var mathDepth = 0
    /// Open `applet` elements, whose content is dropped.
    var appletDepth = 0
  }

  // MARK: Output

  /// `range` of the input is not written.
  private mutating func drop(_ range: Range<Int>) {
    beginReplacing(at: range.lowerBound, of: range.upperBound)
  }

  /// Starts writing a replacement for the input from `start` to `end`: copies what comes
  /// before it; the caller appends the replacement.
  private mutating func beginReplacing(at start: Int, of end: Int) {
    if !changed && output.capacity < input.count + input.count / 8 + 64 {
      output.reserveCapacity(input.count + input.count / 8 + 64)
    }
    changed = true
    output.append(contentsOf: UnsafeBufferPointer(rebasing: input[copied..<start]))
    copied = end
  }

  // MARK: Text

  /// Text: `<` and `>` escaped, references kept when valid, a stray `&` escaped.
  private mutating func text(_ range: Range<Int>) {
    var index = range.lowerBound
    let end = range.upperBound
    guard let base = input.baseAddress else { return }
    while index < end {
      index = Self.nextSpecial(base, from: index, to: end)
      guard index < end else { break }
      switch base[index] {
      case UInt8(ascii: "<"):
        replaceByte(at: index, with: "&lt;")
        index += 1
      case UInt8(ascii: ">"):
        replaceByte(at: index, with: "&gt;")
        index += 1
      default:
        index = reference(at: index, in: UnsafeBufferPointer(rebasing: input[..<end]))
      }
    }
  }

  /// Text from `start` (not a `<`) up to the next `<` that starts markup, the end of the text
  /// token the tokenizer would read there, written as `text` writes it; returns that `<`'s
  /// index (or the input's end). One scan finds `<`, `&` and `>` alike, thirty-two bytes a
  /// look, where the tokenizer sought `<`, then `&`, then `>` with a `memchr` call each (about
  /// sixty instructions a call, more than a paragraph's bytes cost) and the loop tried an end
  /// tag and two kinds of start tag at every text first. A reference is read against the
  /// whole input, not the text token: its name and digits stop at a `<` either way, so it
  /// reads the same.
  @inline(__always)
  private mutating func passText(from start: Int) -> Int {
    let base = input.baseAddress!
    let end = input.count
    var index = start
    while true {
      index = Self.nextTextStop(base, from: index, to: end)
      guard index < end else { return end }
      switch base[index] {
      case UInt8(ascii: "<"):
        if HTMLTokenizer.startsMarkup(base, at: index, count: end) { return index }
        replaceByte(at: index, with: "&lt;")
        index &+= 1
      case UInt8(ascii: ">"):
        replaceByte(at: index, with: "&gt;")
        index &+= 1
      default:
        index = reference(at: index, in: input)
      }
    }
  }

  /// The `&` at `index` as `text` writes it: a reference kept or replaced, a literal `&`
  /// escaped; returns where the text goes on.
  @inline(__always)
  private mutating func reference(at index: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
    switch HTMLCharacterReference.read(text, at: index) {
    case .keep(let referenceEnd):
      return referenceEnd
    case .replace(let referenceEnd, let scalar):
      beginReplacing(at: index, of: referenceEnd)
      if let scalar { Self.appendEscaped(scalar, to: &output) }
      return referenceEnd
    case .literal:
      replaceByte(at: index, with: "&amp;")
      return index + 1
    }
  }

  /// The next `<`, `&` or `>` at or after `from`, thirty-two bytes a look while they last,
  /// then sixteen, then one at a time.
  @inline(__always)
  private static func nextTextStop(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
    let lessThan = SIMD16<UInt8>(repeating: UInt8(ascii: "<"))
    let ampersand = SIMD16<UInt8>(repeating: UInt8(ascii: "&"))
    let greaterThan = SIMD16<UInt8>(repeating: UInt8(ascii: ">"))
    @inline(__always) func stops(at index: Int) -> SIMDMask<SIMD16<Int8>> {
      let bytes = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
      return (bytes .== lessThan) .| (bytes .== ampersand) .| (bytes .== greaterThan)
    }
    var index = from
    while index &+ 32 <= end {
      if HTMLTokenizer.anyLane(stops(at: index) .| stops(at: index &+ 16)) { break }
      index &+= 32
    }
    while index &+ 16 <= end {
      let found = stops(at: index)
      if HTMLTokenizer.anyLane(found) { return index &+ HTMLTokenizer.firstLane(found) }
      index &+= 16
    }
    return nextSpecialByte(base, from: index, to: end)
  }

  private mutating func replaceByte(at index: Int, with escape: StaticString) {
    beginReplacing(at: index, of: index + 1)
    output.append(
      contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
  }

  /// The next `<`, `>` or `&` at or after `from`, eight bytes at a time.
  @inline(__always)
  private static func nextSpecial(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
    var index = from
    while index &+ 8 <= end {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      let mask =
        ByteWord.matches(word, UInt8(ascii: "<")) | ByteWord.matches(word, UInt8(ascii: ">"))
        | ByteWord.matches(word, UInt8(ascii: "&"))
      if mask != 0 { return index &+ ByteWord.firstMatch(mask) }
      index &+= 8
    }
    return nextSpecialByte(base, from: index, to: end)
  }

  /// The next `<`, `>` or `&` at or after `from`, a byte at a time: the last few bytes of a
  /// text, after `nextTextStop` or `nextSpecial` has looked at whole blocks.
  @inline(__always)
  private static func nextSpecialByte(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
    var index = from
    while index < end {
      let byte = base[index]
      if byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") {
        return index
      }
      index &+= 1
    }
    return end
  }

  /// A character as text or attribute value: the four markup characters as references.
  static func appendEscaped(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
    switch scalar {
    case "&": output.append(contentsOf: "&amp;".utf8)
    case "<": output.append(contentsOf: "&lt;".utf8)
    case ">": output.append(contentsOf: "&gt;".utf8)
    case "\"": output.append(contentsOf: "&quot;".utf8)
    default: HTMLCharacterReference.appendUTF8(scalar, to: &output)
    }
  }

  // MARK: Tags

  private mutating func startTag(
    _ name: Range<Int>, _ tag: Range<Int>, _ selfClosing: Bool,
    _ tokenizer: inout HTMLTokenizer, _ run: inout Run
  ) {
    let base = input.baseAddress!
    let row = scratch.names.row(base + name.lowerBound, name.count, in: elements, part: 1)
    let info = row.map { elements.info($0) } ?? []
    if run.appletDepth > 0 {
      if info.contains(.droppedWithContent) && !selfClosing { run.appletDepth += 1 }
      return drop(tag)
    }
    if info.contains(.rawText) {
      if !selfClosing { tokenizer.skipRawText(named: name) }
      return drop(tag.lowerBound..<max(tag.upperBound, tokenizer.position))
    }
    if info.contains(.droppedWithContent) {
      if !selfClosing { run.appletDepth = 1 }
      return drop(tag)
    }
    guard let row else { return drop(tag) }
    // Which vocabulary's attributes apply, as feedparser decides: MathML inside `math`, SVG
    // inside `svg`, else HTML; `svg` and `math` themselves open their vocabulary when they
    // carry its namespace (HTML's inline SVG and MathML do without: it is implied).
    let isSVGRoot = row == svgRow
    let isMathRoot = row == mathRow
    var vocabulary: HTMLVocabulary.AttributeInfo
    var addsNamespace = false
    if run.mathDepth > 0 && info.contains(.mathML) {
      vocabulary = .mathML
    } else if run.svgDepth > 0 && info.contains(.svg) {
      vocabulary = .svg
    } else if info.contains(.html) {
      vocabulary = .html
    } else if isSVGRoot || isMathRoot {
      let namespace: StaticString = isSVGRoot ? Self.svgNamespace : Self.mathNamespace
      let declared = namespaceDeclaration(tokenizer.attributes)
      guard declared.map({ $0.equals(namespace) }) == true || run.flavour == .html else {
        return drop(tag)
      }
      addsNamespace = declared == nil
      vocabulary = isSVGRoot ? .svg : .mathML
    } else {
      return drop(tag)
    }
    if isSVGRoot && !selfClosing { run.svgDepth += 1 }
    if isMathRoot && !selfClosing { run.mathDepth += 1 }
    let isForeign = vocabulary != .html
    let isVoid = info.contains(.void) && !isForeign
    var (attributesChanged, addsXLink) = (false, false)
    if tokenizer.attributeCount > 0 {
      (attributesChanged, addsXLink) = keepAttributes(
        tokenizer.attributes, element: info, vocabulary: vocabulary, run: run)
    } else {
      keptCount = 0
    }
    if !selfClosing && !isVoid { open.push(row, &openCount) }
    // The name as written out: lower case (SVG's camel case).
    var tagChanged =
      attributesChanged || addsNamespace || addsXLink
      || !elements.isSpelled(row, base + name.lowerBound, name.count)
    // A non-void HTML element written `<p/>` becomes `<p></p>` in XHTML, and in HTML when it
    // has no attributes (feedparser); otherwise the `/` goes. Foreign elements keep `/>`.
    let hasSelfClosingSlash = selfClosing && !isVoid && !isForeign
    let closesItself =
      hasSelfClosingSlash && (run.flavour == .xhtml || tokenizer.attributes.isEmpty)
    if hasSelfClosingSlash { tagChanged = true }
    // A tag ended by a stray `<` (`<br/</p>`) has no `>` of its own: it is written anew.
    if input[tag.upperBound - 1] != UInt8(ascii: ">") { tagChanged = true }
    guard tagChanged else { return }
    writeStartTag(
      tag, row: row, namespace: addsNamespace ? (isSVGRoot ? .svg : .mathML) : nil,
      addsXLink: addsXLink, endsWithSlash: isVoid || (isForeign && selfClosing),
      closesItself: closesItself)
  }

  /// Decides the plain links of a start tag that `HTMLKeptStartTags` took (at `start`) as the
  /// full way does (`resolvedPlainURI`), and writes the tag anew as `writeStartTag` would when
  /// one changes: its other bytes stay as written, one space before each attribute, ` />` on a
  /// void element. False (nothing written) when the full way must read the tag.
  @inline(never)
  private mutating func keepsLinks(
    of tag: HTMLKeptStartTags.Tag, at start: Int, base: String?
  ) -> Bool {
    let bytes = input.baseAddress!
    if usesRewrittenTags,
      let entry = rewrittenTags.entry(bytes, from: start, to: tag.end, base: base)
    {
      // The same bytes decided against the same base before: the same writing.
      if let written = entry.pointee.written {
        beginReplacing(at: start, of: tag.end)
        // From a buffer: appending an array went element by element.
        written.withUnsafeBufferPointer { output.append(contentsOf: $0) }
      }
      return true
    }
    if !values.isEmpty { values.removeAll(keepingCapacity: true) }
    let positions = keptStartTags
    // The new values' ranges in `values`, for the attributes in `replaced`.
    var newStarts: SixteenInts = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var newEnds = newStarts
    var replaced: UInt32 = 0
    var links = tag.links
    while links != 0 {
      let index = links.trailingZeroBitCount
      let bit = UInt32(1) &<< UInt32(index)
      links &= links &- 1
      let raw = UnsafeBufferPointer(
        start: bytes + positions.valueStarts[index],
        count: positions.valueEnds[index] &- positions.valueStarts[index])
      guard let answer = resolvedPlainURI(raw, resolving: tag.resolving & bit != 0 ? base : nil)
      else { return false }
      if let range = answer {
        Self.store(range.lowerBound, at: index, in: &newStarts)
        Self.store(range.upperBound, at: index, in: &newEnds)
        replaced |= bit
      }
    }
    guard replaced != 0 else {
      if usesRewrittenTags {
        rewrittenTags.remember(
          bytes, from: start, to: tag.end, row: tag.row, opens: tag.opens, base: base,
          written: nil)
      }
      return true
    }
    beginReplacing(at: start, of: tag.end)
    let writtenStart = output.count
    output.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: tag.nameCount &+ 1))
    for index in 0..<tag.attributeCount {
      output.append(UInt8(ascii: " "))
      let nameStart = positions.nameStarts[index]
      if replaced & (UInt32(1) &<< UInt32(index)) != 0 {
        // `name="`, the new value, `"`.
        output.append(
          contentsOf: UnsafeBufferPointer(
            start: bytes + nameStart, count: positions.valueStarts[index] &- nameStart))
        let newStart = Self.load(at: index, from: newStarts)
        let newEnd = Self.load(at: index, from: newEnds)
        values.withUnsafeBufferPointer {
          output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[newStart..<newEnd]))
        }
        output.append(UInt8(ascii: "\""))
      } else {
        // `name="value"` as written.
        output.append(
          contentsOf: UnsafeBufferPointer(
            start: bytes + nameStart, count: positions.valueEnds[index] &+ 1 &- nameStart))
      }
    }
    if tag.isVoid {
      output.append(UInt8(ascii: " "))
      output.append(UInt8(ascii: "/"))
    }
    output.append(UInt8(ascii: ">"))
    if usesRewrittenTags {
      output.withUnsafeBufferPointer {
        rewrittenTags.remember(
          bytes, from: start, to: tag.end, row: tag.row, opens: tag.opens, base: base,
          written: UnsafeBufferPointer(rebasing: $0[writtenStart...]))
      }
    }
    return true
  }

  /// Just past the start tag at `start` when `keepsLinks` decided the same bytes against the
  /// same base before (`HTMLRewrittenStartTags`), found without reading the tag: written as
  /// then, its element opened.
  @inline(__always)
  private mutating func writesRemembered(at start: Int, base: String?) -> Int? {
    guard let entry = rewrittenTags.entry(at: start, in: input, base: base) else { return nil }
    let end = start &+ entry.pointee.tag.count
    if let written = entry.pointee.written {
      beginReplacing(at: start, of: end)
      // From a buffer: appending an array went element by element.
      written.withUnsafeBufferPointer { output.append(contentsOf: $0) }
    }
    if entry.pointee.opens { open.push(entry.pointee.row, &openCount) }
    return end
  }

  /// Sixteen integers on the stack, one for each attribute a kept start tag can have.
  private typealias SixteenInts = (
    Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int
  )

  @inline(__always)
  private static func store(_ value: Int, at index: Int, in ints: inout SixteenInts) {
    withUnsafeMutableBytes(of: &ints) {
      $0.storeBytes(of: value, toByteOffset: index &* MemoryLayout<Int>.stride, as: Int.self)
    }
  }

  @inline(__always)
  private static func load(at index: Int, from ints: SixteenInts) -> Int {
    withUnsafeBytes(of: ints) {
      $0.load(fromByteOffset: index &* MemoryLayout<Int>.stride, as: Int.self)
    }
  }

  /// Writes the start tag `tag` anew: element `row`, the kept attributes, the namespace
  /// declarations it needs, ` />` or `>`, and its end tag when it `closesItself`. Apart from
  /// `startTag` so that the tags that stay as written (most) run through less code.
  @inline(never)
  private mutating func writeStartTag(
    _ tag: Range<Int>, row: Int, namespace: HTMLVocabulary.AttributeInfo?, addsXLink: Bool,
    endsWithSlash: Bool, closesItself: Bool
  ) {
    let spelling = elements.spelling(row)
    beginReplacing(at: tag.lowerBound, of: tag.upperBound)
    output.append(UInt8(ascii: "<"))
    output.append(contentsOf: spelling)
    for attribute in UnsafeBufferPointer(start: scratch.kept, count: keptCount) {
      let attributeSpelling = attributeTable.spelling(attribute.row)
      output.append(UInt8(ascii: " "))
      output.append(contentsOf: attributeSpelling)
      output.append(UInt8(ascii: "="))
      output.append(UInt8(ascii: "\""))
      if let newValue = attribute.newValue {
        output.append(contentsOf: values[newValue])
      } else if let value = attribute.value {
        appendAttributeValue(UnsafeBufferPointer(rebasing: input[value]))
      } else {
        output.append(contentsOf: attributeSpelling)
      }
      output.append(UInt8(ascii: "\""))
    }
    if let namespace {
      output.append(contentsOf: " xmlns=\"".utf8)
      let namespace: StaticString = namespace == .svg ? Self.svgNamespace : Self.mathNamespace
      output.append(
        contentsOf: UnsafeBufferPointer(
          start: namespace.utf8Start, count: namespace.utf8CodeUnitCount))
      output.append(UInt8(ascii: "\""))
    }
    if addsXLink { output.append(contentsOf: " xmlns:xlink=\"http://www.w3.org/1999/xlink\"".utf8) }
    if endsWithSlash {
      output.append(UInt8(ascii: " "))
      output.append(UInt8(ascii: "/"))
      output.append(UInt8(ascii: ">"))
    } else {
      output.append(UInt8(ascii: ">"))
    }
    if closesItself {
      output.append(UInt8(ascii: "<"))
      output.append(UInt8(ascii: "/"))
      output.append(contentsOf: spelling)
      output.append(UInt8(ascii: ">"))
    }
  }

  /// The value of the tag's `xmlns` attribute, if it has one.
  private func namespaceDeclaration(_ attributes: UnsafeBufferPointer<HTMLTokenizer.Attribute>)
    -> UnsafeBufferPointer<UInt8>?
  {
    let base = input.baseAddress!
    for attribute in attributes
    where attributeTable.row(base + attribute.name.lowerBound, attribute.name.count)
      == xmlnsRow
    {
      return UnsafeBufferPointer(rebasing: input[attribute.value ?? 0..<0])
    }
    return nil
  }

  /// Fills `kept` with the tag's attributes that stay (and their new values, in `values`), in
  /// one pass: whether the tag must be written anew, and whether it needs the XLink namespace
  /// declared (inside SVG or MathML, an `xlink:` attribute without `xmlns:xlink`).
  private mutating func keepAttributes(
    _ attributes: UnsafeBufferPointer<HTMLTokenizer.Attribute>,
    element: HTMLVocabulary.ElementInfo, vocabulary: HTMLVocabulary.AttributeInfo, run: Run
  ) -> (changed: Bool, addsXLink: Bool) {
    keptCount = 0
    if !values.isEmpty { values.removeAll(keepingCapacity: true) }
    guard !attributes.isEmpty else { return (false, false) }
    let table = attributeTable
    let base = input.baseAddress!
    var changed = false
    var sawXLink = false
    var sawXLinkDeclaration = false
    scratch.reserve(attributes.count)
    let kept = scratch.kept
    let seenNames = scratch.seenNames
    let seenRows = scratch.seenRows
    let names = scratch.names
    var seenCount = 0
    defer { for index in 0..<seenCount { seenNames[seenRows[index] &>> 6] = 0 } }
    for attribute in attributes {
      let nameStart = base + attribute.name.lowerBound
      let nameCount = attribute.name.count
      guard let row = names.row(nameStart, nameCount, in: table, part: 0) else {
        changed = true
        continue
      }
      let info = table.info(row)
      if info.contains(.xlink) { sawXLink = true }
      if row == xmlnsXLinkRow { sawXLinkDeclaration = true }
      let isStyle = info.contains(.style) && vocabulary == .html
      guard info.contains(vocabulary) || isStyle else {
        changed = true
        continue
      }
      // The first of a name counts, as in HTML.
      let (word, bit) = (row &>> 6, UInt64(1) &<< UInt64(row & 63))
      if seenNames[word] & bit != 0 {
        changed = true
        continue
      }
      seenNames[word] |= bit
      (seenRows + seenCount).initialize(to: row)
      seenCount += 1
      if attribute.quote != UInt8(ascii: "\"") || !table.isSpelled(row, nameStart, nameCount) {
        changed = true
      }
      var keptAttribute = KeptAttribute(row: row, newValue: nil, value: attribute.value)
      let resolves =
        info.uriAttribute.map { element.resolvedURIAttributes & (1 << $0.rawValue) != 0 }
        ?? false
      if isStyle {
        guard let newValue = sanitizedStyle(attribute.value, inSVG: run.svgDepth > 0) else {
          changed = true
          continue
        }
        if let newValue {
          keptAttribute.newValue = newValue
          changed = true
        }
      } else if info.contains(.uri) || resolves {
        let raw = attribute.value.map { UnsafeBufferPointer(rebasing: input[$0]) }
        if let newValue = rewrittenURI(raw, resolving: resolves ? run.base : nil) {
          keptAttribute.newValue = newValue
          changed = true
        }
      } else if let value = attribute.value,
        Self.needsEscaping(UnsafeBufferPointer(rebasing: input[value]))
      {
        changed = true
      }
      (kept + keptCount).initialize(to: keptAttribute)
      keptCount += 1
    }
    let addsXLink = sawXLink && !sawXLinkDeclaration && (run.svgDepth > 0 || run.mathDepth > 0)
    return (changed, addsXLink)
  }

  /// A `style` attribute's value as it must be written: nil when no declaration stays (the
  /// attribute goes), `.some(nil)` when it stays as written, else the new value's range in
  /// `values`.
  @inline(never)
  private mutating func sanitizedStyle(_ value: Range<Int>?, inSVG: Bool) -> Range<Int>?? {
    let raw = value.map { UnsafeBufferPointer(rebasing: input[$0]) }
    let sanitized: [UInt8]?
    if usesRememberedStyle, let raw, let known = rememberedStyle.sanitized(raw, inSVG: inSVG) {
      sanitized = known
    } else {
      decode(raw)
      sanitized = CSSStyleSanitizer.sanitize(decoded, inSVG: inSVG)
      if usesRememberedStyle, let raw {
        rememberedStyle.remember(raw, inSVG: inSVG, clean: sanitized)
      }
    }
    guard let clean = sanitized else { return nil }
    let written = value.map { input[$0].elementsEqual(clean) } ?? false
    return .some(written ? nil : appendValue(escaping: clean))
  }

  /// A URI attribute's value as it must be written (`checkedURI`, escaped), appended to
  /// `values`: its range there, or nil when the value stays as written.
  private mutating func rewrittenURI(
    _ raw: UnsafeBufferPointer<UInt8>?, resolving base: String?
  ) -> Range<Int>? {
    if let raw, !raw.isEmpty, Self.isPlain(raw),
      let answer = resolvedPlainURI(raw, resolving: base)
    {
      return answer
    }
    guard let uri = checkedURI(raw, resolving: base) else { return nil }
    let escaped = appendValue(escaping: uri)
    if let raw, values[escaped].elementsEqual(raw) {
      // Written as it was (`&quot;` in a URL stays `&quot;`).
      values.removeLast(escaped.count)
      return nil
    }
    return escaped
  }

  /// `rewrittenURI` for a plain value (not empty, nothing to decode, drop, trim or escape: most
  /// links of a feed), whose answer is known without a copy: nil when it stays as written, an
  /// empty range for a scheme that is not acceptable, or its range once resolved straight into
  /// `values` when it is relative. Nil (outside) when `base` does not split (`MarkupBase`), for
  /// `checkedURI` to decide.
  @inline(__always)
  private mutating func resolvedPlainURI(
    _ raw: UnsafeBufferPointer<UInt8>, resolving base: String?
  ) -> Range<Int>?? {
    if Self.isHTTP(raw) { return .some(nil) }
    guard URISchemes.isAcceptable(raw) else { return values.count..<values.count }
    guard let base, !Self.hasScheme(raw) else { return .some(nil) }
    if markupBase?.text != base { markupBase = MarkupBase(base) }
    guard let markupBase else { return nil }
    let start = values.count
    markupBase.resolve(raw, into: &values, scratch: &pathScratch)
    if markupBase.hasMarkupCharacters { escapeValue(from: start) }
    let unchanged =
      values.count - start == raw.count
      && values.withUnsafeBufferPointer {
        memcmp($0.baseAddress! + start, raw.baseAddress!, raw.count) == 0
      }
    return .some(unchanged ? nil : start..<values.count)
  }

  /// Escapes `values` from `start` to its end in place (a base's query may hold `&`).
  private mutating func escapeValue(from start: Int) {
    guard
      values[start...].contains(where: {
        $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
          || $0 == UInt8(ascii: "\"")
      })
    else { return }
    let unescaped = Array(values[start...])
    values.removeSubrange(start...)
    _ = appendValue(escaping: unescaped)
  }

  /// Storage for `MarkupBase.resolve`, kept between links.
  private var pathScratch: [UInt8] = []

  /// A URI attribute's value, when it must change: decoded, trimmed, resolved against `base`,
  /// emptied when its scheme is not acceptable. Nil when the written value is already that.
  private mutating func checkedURI(
    _ raw: UnsafeBufferPointer<UInt8>?, resolving base: String?
  ) -> [UInt8]? {
    guard let raw else { return [] }
    decode(raw)
    // Browsers drop tab, LF and CR anywhere in a URL: `java&#9;script:` is `javascript:`.
    decoded.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    var bytes: [UInt8] = []
    let acceptable = decoded.withUnsafeBufferPointer { URISchemes.isAcceptable($0) }
    if acceptable {
      var start = decoded.startIndex
      var end = decoded.endIndex
      while start < end && decoded[start].isXMLSpace { start += 1 }
      while end > start && decoded[end - 1].isXMLSpace { end -= 1 }
      let reference = decoded[start..<end]
      // An empty value stays empty (it is what an unsafe one becomes).
      if let base, !reference.isEmpty, !Self.hasScheme(reference) {
        if markupBase?.text != base { markupBase = MarkupBase(base) }
        if let markupBase {
          bytes = markupBase.resolve(reference)
        } else {
          let text = String(decoding: reference, as: UTF8.self)
          bytes = Array(URIResolver.resolve(text, against: base).utf8)
        }
      } else {
        bytes = Array(reference)
      }
    }
    return bytes.elementsEqual(raw) && !Self.needsEscaping(raw) ? nil : bytes
  }

  /// The base of the field being sanitized, split once (`MarkupBase`).
  private var markupBase: MarkupBase?

  /// `http://` or `https://` at the start (in lower case): an absolute link that stays.
  @inline(__always)
  private static func isHTTP(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    guard raw.count >= 8 else { return false }
    let word = UnsafeRawPointer(raw.baseAddress!).loadUnaligned(as: UInt64.self)
    // Little-endian: `https://`, and `http://` with any eighth byte.
    return word == 0x2F2F_3A73_7074_7468 || word & 0x00FF_FFFF_FFFF_FFFF == 0x2F_2F3A_7074_7468
  }

  /// RFC 3986 section 3.1: a letter, then letters, digits, `+`, `-`, `.`, then `:`.
  private static func hasScheme<Bytes: Collection<UInt8>>(_ reference: Bytes) -> Bool {
    guard let first = reference.first, first.isASCIILetter else { return false }
    for byte in reference.dropFirst() {
      if byte == UInt8(ascii: ":") { return true }
      guard
        byte.isASCIIAlphanumeric || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
          || byte == UInt8(ascii: ".")
      else { return false }
    }
    return false
  }

  /// True when a value holds nothing to decode, drop, trim or escape: no `&`, `<`, `>`, `"`,
  /// no space or control.
  private static func isPlain(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    // Eight bytes at a time (a test may flag a byte it should not, never miss one).
    let base = raw.baseAddress!
    let count = raw.count
    @inline(__always) func flags(_ word: UInt64) -> UInt64 {
      ByteWord.matchesBelow(word, 0x21) | ByteWord.matches(word, UInt8(ascii: "&"))
        | ByteWord.matches(word | 0x0202_0202_0202_0202, UInt8(ascii: ">"))
        | ByteWord.matches(word, UInt8(ascii: "\""))
    }
    var index = 0
    // Sixteen bytes a turn first: links run to tens of bytes.
    while index &+ 16 <= count {
      let bytes = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
      let blank = bytes .< SIMD16<UInt8>(repeating: 0x21)
      let ampersand = bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: "&"))
      let lessThan = bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: "<"))
      let greaterThan = bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: ">"))
      let quote = bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
      let flagged = blank .| ampersand .| lessThan .| greaterThan .| quote
      if HTMLTokenizer.anyLane(flagged) { return false }
      index &+= 16
    }
    while index &+ 8 <= count {
      if flags(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) != 0 {
        return false
      }
      index &+= 8
    }
    guard index < count else { return true }
    let remaining = count &- index
    // Bytes past the end read as `a`, which none of the tests flags.
    let word =
      ByteWord.load(base + index, count: remaining) | 0x6161_6161_6161_6161
      &<< UInt64(8 &* remaining)
    return flags(word) == 0
  }

  /// A value's references decoded into `decoded`.
  private mutating func decode(_ raw: UnsafeBufferPointer<UInt8>?) {
    decoded.removeAll(keepingCapacity: true)
    guard let raw else { return }
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      guard byte == UInt8(ascii: "&") else {
        decoded.append(byte)
        index += 1
        continue
      }
      switch HTMLCharacterReference.read(raw, at: index) {
      case .keep(let end):
        HTMLCharacterReference.appendDecoded(raw, from: index, to: end, into: &decoded)
        index = end
      case .replace(let end, let scalar):
        if let scalar { HTMLCharacterReference.appendUTF8(scalar, to: &decoded) }
        index = end
      case .literal:
        decoded.append(byte)
        index += 1
      }
    }
  }

  /// `bytes` escaped into `values`; returns their range there.
  private mutating func appendValue(escaping bytes: [UInt8]) -> Range<Int> {
    let start = values.count
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "&"): values.append(contentsOf: "&amp;".utf8)
      case UInt8(ascii: "<"): values.append(contentsOf: "&lt;".utf8)
      case UInt8(ascii: ">"): values.append(contentsOf: "&gt;".utf8)
      case UInt8(ascii: "\""): values.append(contentsOf: "&quot;".utf8)
      default: values.append(byte)
      }
    }
    return start..<values.count
  }

  /// An input value written between double quotes: valid references kept, the rest escaped.
  private mutating func appendAttributeValue(_ raw: UnsafeBufferPointer<UInt8>) {
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      switch byte {
      case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
      case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
      case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
      case UInt8(ascii: "&"):
        switch HTMLCharacterReference.read(raw, at: index) {
        case .keep(let end):
          output.append(contentsOf: raw[index..<end])
          index = end
          continue
        case .replace(let end, let scalar):
          if let scalar { Self.appendEscaped(scalar, to: &output) }
          index = end
          continue
        case .literal:
          output.append(contentsOf: "&amp;".utf8)
        }
      default: output.append(byte)
      }
      index += 1
    }
  }

  /// True when a value cannot stay as written between double quotes.
  private static func needsEscaping(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = raw.baseAddress else { return false }
    // Eight bytes at a time first: most values (sizes, alternative texts, classes) hold
    // none of the four bytes, and testing each byte against four cost more than the rest.
    var index = 0
    var found = false
    while index < raw.count {
      let remaining = raw.count - index
      let word = ByteWord.load(start + index, count: min(8, remaining))
      // Bytes past the end read as 0, which none of the tests flags.
      let mask =
        ByteWord.matches(word, UInt8(ascii: "&")) | ByteWord.matches(word, UInt8(ascii: "<"))
        | ByteWord.matches(word, UInt8(ascii: ">")) | ByteWord.matches(word, UInt8(ascii: "\""))
      if mask != 0 {
        found = true
        break
      }
      index += 8
    }
    guard found else { return false }
    index = 0
    while index < raw.count {
      switch raw[index] {
      case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""): return true
      case UInt8(ascii: "&"):
        guard case .keep(let end) = HTMLCharacterReference.read(raw, at: index) else {
          return true
        }
        index = end
        continue
      default: break
      }
      index += 1
    }
    return false
  }

  private mutating func endTag(_ name: Range<Int>, _ tag: Range<Int>, _ run: inout Run) {
    let nameStart = input.baseAddress! + name.lowerBound
    let row: Int?
    if let innermost = open.closedRow(nameStart, name.count, &openCount, elements) {
      row = innermost
    } else {
      row = elements.row(nameStart, name.count)
    }
    let info = row.map { elements.info($0) } ?? []
    if run.appletDepth > 0 {
      if info.contains(.droppedWithContent) { run.appletDepth -= 1 }
      return drop(tag)
    }
    guard let row, !info.contains(.void) else { return drop(tag) }
    var isKept = info.contains(.html)
    if row == svgRow && run.svgDepth > 0 {
      run.svgDepth -= 1
      isKept = true
    } else if row == mathRow && run.mathDepth > 0 {
      run.mathDepth -= 1
      isKept = true
    } else if !isKept {
      isKept =
        (run.mathDepth > 0 && info.contains(.mathML)) || (run.svgDepth > 0 && info.contains(.svg))
    }
    guard isKept else { return drop(tag) }
    // `</p>` exactly as written out stays; `</P>`, `</p >` are written anew.
    if tag.count == name.count + 3,
      elements.isSpelled(row, input.baseAddress! + name.lowerBound, name.count)
    {
      return
    }
    writeEndTag(tag, row: row)
  }

  /// Writes the end tag `tag` anew, as element `row`'s.
  @inline(never)
  private mutating func writeEndTag(_ tag: Range<Int>, row: Int) {
    let spelling = elements.spelling(row)
    beginReplacing(at: tag.lowerBound, of: tag.upperBound)
    output.append(UInt8(ascii: "<"))
    output.append(UInt8(ascii: "/"))
    output.append(contentsOf: spelling)
    output.append(UInt8(ascii: ">"))
  }

  // MARK: Helpers

  private static let svgNamespace: StaticString = "http://www.w3.org/2000/svg"
  private static let mathNamespace: StaticString = "http://www.w3.org/1998/Math/MathML"

  /// Memory for one tag's kept attributes and the names it has used, kept from tag to tag:
  /// arrays emptied and appended to at every tag cost a call and a uniqueness check each.
  private final class Scratch {
    private(set) var kept: UnsafeMutablePointer<KeptAttribute>
    /// A row per attribute name seen on the tag, and a bit per row of the vocabulary (set
    /// only while the tag is read).
    private(set) var seenRows: UnsafeMutablePointer<Int>
    let seenNames: UnsafeMutablePointer<UInt64>
    /// The rows of the attribute and element names met last.
    let names = HTMLRecentNames(parts: 2)
    private var capacity = 16

    init() {
      kept = .allocate(capacity: capacity)
      seenRows = .allocate(capacity: capacity)
      let words = (HTMLVocabulary.attributes.count + 63) / 64
      seenNames = .allocate(capacity: words)
      seenNames.initialize(repeating: 0, count: words)
    }

    /// Room for `count` attributes.
    func reserve(_ count: Int) {
      guard count > capacity else { return }
      while capacity < count { capacity *= 2 }
      kept.deallocate()
      seenRows.deallocate()
      kept = .allocate(capacity: capacity)
      seenRows = .allocate(capacity: capacity)
    }

    deinit {
      kept.deallocate()
      seenRows.deallocate()
      seenNames.deallocate()
    }
  }
}
