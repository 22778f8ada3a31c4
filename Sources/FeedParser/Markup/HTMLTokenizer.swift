import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Splits HTML text into tokens, in place: every token is a range of the input, a start tag's
/// attributes go into storage reused from tag to tag, and nothing is allocated per token. The
/// sanitizer and the text renderer both read HTML through it.
///
/// The rules are the HTML tokenizer's where feed markup needs nothing else, and feedparser's
/// (whose sanitizer tests the output is measured against) where the two differ on markup that
/// real feeds carry:
/// - `<` starts a start tag before an ASCII letter, an end tag before `/` and a letter, a
///   comment at `<!--`, a declaration at `<!doctype`, a marked section at `<![`, a processing
///   instruction at `<?`; any other `<` is text, and so is `<![CDATA[` (HTML has no CDATA).
/// - A start tag ends at its `>` outside quotes, or just before a `<` met where an attribute
///   name would start (`<a<b>`). A quote that never closes ends its value at the next `>`. A
///   tag that never ends is text.
/// - A comment ends at `--` followed by optional white space and `>`, else at the first `--…>`,
///   else it runs to the end (feedparser's reading of broken comments: `<!-- -- x >` ends
///   there, and an unclosed `<!--` hides the rest rather than showing it).
/// - A declaration or processing instruction without its `>` is text.
/// - `script` and `style` are raw text: the consumer skips to their end tag with `skipRawText`.
struct HTMLTokenizer {
  /// One token: ranges of the input.
  enum Token {
    /// Character data, references not decoded; it may hold `<` that starts no markup and `>`.
    case text(Range<Int>)
    /// A start tag; its attributes are in `attributes` until the next call.
    case startTag(name: Range<Int>, tag: Range<Int>, selfClosing: Bool)
    /// An end tag (`</p>`), its name and whole tag.
    case endTag(name: Range<Int>, tag: Range<Int>)
    /// A comment, a declaration, a processing instruction or a marked section: never kept.
    case ignored(Range<Int>)
  }

  /// An attribute as written: its name, its value between the quotes (nil for a bare name).
  struct Attribute {
    var name: Range<Int>
    var value: Range<Int>?
    /// `"`, `'`, or 0 for an unquoted or missing value.
    var quote: UInt8
  }

  let input: UnsafeBufferPointer<UInt8>
  private let base: UnsafePointer<UInt8>
  private(set) var position = 0
  /// Where the attributes go: storage the caller keeps from text to text.
  private let storage: HTMLAttributeStorage
  /// How many attributes the last start tag has.
  private(set) var attributeCount = 0
  /// The attributes of the last start tag (valid until the next call to `next`).
  var attributes: UnsafeBufferPointer<Attribute> {
    UnsafeBufferPointer(start: storage.base, count: attributeCount)
  }
  /// Searches that failed once fail at once after: there is no `>` at or after
  /// `noBracketFrom`, no `"` or `'` at or after `noQuoteFrom`, no `]>` at or after
  /// `noSectionEndFrom`. Without them, text full of `<a b="` would be scanned to its end
  /// from every tag (quadratic time).
  private var noBracketFrom = Int.max
  private var noQuoteFrom: (double: Int, single: Int) = (Int.max, Int.max)
  private var noSectionEndFrom = Int.max
  private var noCommentCloseFrom = Int.max

  /// A tokenizer over `input` whose attributes go to `storage` (kept by the caller between
  /// texts: nothing is allocated per tag or per text).
  init(_ input: UnsafeBufferPointer<UInt8>, storage: HTMLAttributeStorage) {
    self.input = input
    base = input.baseAddress ?? UnsafePointer(bitPattern: 1)!
    self.storage = storage
  }

  var isAtEnd: Bool { position >= input.count }

  /// Where the last text token's first `<` is (one that starts no markup), or `Int.max`.
  private var textFirstLessThan = Int.max
  /// Where the last text token has its first `&`, `>` or `<`, when its scan found it
  /// (`textSpecialKnown`), or `Int.max` for none.
  private var textSpecial = Int.max
  private var textSpecialKnown = false

  /// Where the last text token, `range`, has its first `&`, `>` or `<` (which the sanitizer
  /// may have to escape), or its end: most text holds none and is then not looked at again,
  /// and the rest is looked at from there. Short text was looked at as it was read; the rest
  /// is searched by `memchr`, a tenth of an instruction a byte, where a scan of our own
  /// takes one or two.
  func textFirstSpecial(_ range: Range<Int>) -> Int {
    if textSpecialKnown { return min(textSpecial, range.upperBound) }
    var end = min(textFirstLessThan, range.upperBound)
    end = Self.first(UInt8(ascii: "&"), base, from: range.lowerBound, to: end)
    return Self.first(UInt8(ascii: ">"), base, from: range.lowerBound, to: end)
  }

  /// The next token, or nil at the end.
  @inline(__always)
  mutating func next() -> Token? {
    let count = input.count
    guard position < count else { return nil }
    let start = position
    var firstLessThan = Int.max
    var index = start
    if base[start] == UInt8(ascii: "<") {
      if let token = markup(at: start) { return token }
      firstLessThan = start
      index += 1
    }
    if firstLessThan == Int.max, let end = shortText(from: index) {
      position = end
      return .text(start..<end)
    }
    // Text up to the next `<` that starts markup.
    while true {
      index = Self.first(UInt8(ascii: "<"), base, from: index, to: count)
      if index == count || startsMarkup(at: index) { break }
      firstLessThan = min(firstLessThan, index)
      index += 1
    }
    position = index
    textFirstLessThan = firstLessThan
    textSpecialKnown = false
    return .text(start..<index)
  }

  /// The end of text that ends with markup within sixteen bytes of `start` (a line break or
  /// a space between tags, most text tokens of feed HTML), with its first `&` or `>` noted;
  /// nil for longer text. One look at sixteen bytes, where a `memchr` call for each byte
  /// sought cost more than the bytes.
  @inline(__always)
  private mutating func shortText(from start: Int) -> Int? {
    guard start &+ 16 <= input.count else { return nil }
    let bytes = UnsafeRawPointer(base + start).loadUnaligned(as: SIMD16<UInt8>.self)
    let isLessThan = bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: "<"))
    guard Self.anyLane(isLessThan) else { return nil }
    let end = start &+ Self.firstLane(isLessThan)
    guard startsMarkup(at: end) else { return nil }
    let isSpecial =
      (bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: "&")))
      .| (bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: ">")))
    var special = Int.max
    if Self.anyLane(isSpecial) {
      let first = start &+ Self.firstLane(isSpecial)
      if first < end { special = first }
    }
    textSpecial = special
    textSpecialKnown = true
    return end
  }

  /// Whether a mask sets a lane (the standard library's `any` reduces lane by lane).
  @inline(__always)
  static func anyLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Bool {
    let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
    return words[0] | words[1] != 0
  }

  /// The first lane a mask sets (one is set).
  @inline(__always)
  static func firstLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Int {
    let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
    return words[0] != 0
      ? words[0].trailingZeroBitCount &>> 3 : 8 &+ words[1].trailingZeroBitCount &>> 3
  }

  /// The name of a start tag without attributes at the current position (`<p>`), which a
  /// caller may take without tokenizing it (then `skip(to: name.upperBound + 1)`); nil for
  /// anything else.
  @inline(__always)
  func plainStartTag() -> Range<Int>? {
    let start = position
    let count = input.count
    guard start &+ 2 < count, base[start] == UInt8(ascii: "<"), base[start &+ 1].isASCIILetter
    else { return nil }
    var end = start &+ 2
    while end < count && !Self.endsName(base[end]) { end &+= 1 }
    guard end < count, base[end] == UInt8(ascii: ">") else { return nil }
    return start &+ 1..<end
  }

  /// Goes on at `index`, past markup the caller read itself.
  mutating func skip(to index: Int) {
    position = index
  }

  /// The index of the first `byte` at or after `from` and before `end`, or `end`.
  @inline(__always)
  static func first(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
    guard from < end, let found = memchr(base + from, Int32(byte), end - from) else { return end }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }

  /// Skips the content of a raw-text element (`script`, `style`) named `name`, up to and
  /// including its end tag, or to the end of the input.
  mutating func skipRawText(named name: Range<Int>) {
    let count = input.count
    let length = name.count
    var index = position
    while true {
      index = Self.first(UInt8(ascii: "<"), base, from: index, to: count)
      guard index + 1 < count else {
        position = count
        return
      }
      if base[index + 1] == UInt8(ascii: "/"), index + 2 + length <= count,
        Self.equalIgnoringCase(base + index + 2, base + name.lowerBound, length)
      {
        let after = index + 2 + length
        if after == count || Self.endsName(base[after]) {
          position = closingBracket(from: after).map { $0 + 1 } ?? count
          return
        }
      }
      index += 1
    }
  }

  // MARK: Markup

  private func startsMarkup(at index: Int) -> Bool {
    Self.startsMarkup(base, at: index, count: input.count)
  }

  /// Whether the `<` at `index` of `count` bytes from `base` may start markup (a letter, `/`,
  /// `!` or `?` after it): where a text token ends.
  @inline(__always)
  static func startsMarkup(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Bool {
    guard index + 1 < count else { return false }
    let next = base[index + 1]
    if next.isASCIILetter { return true }
    switch next {
    case UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "?"): return true
    default: return false
    }
  }

  /// The markup token at a `<`, or nil when the `<` is text.
  private mutating func markup(at start: Int) -> Token? {
    let count = input.count
    guard start + 1 < count else { return nil }
    let next = base[start + 1]
    if next.isASCIILetter { return startTag(at: start) }
    switch next {
    case UInt8(ascii: "/"):
      guard start + 2 < count else { return nil }
      if base[start + 2].isASCIILetter { return endTag(at: start) }
      // `</>` and `</ 3>`: not tags; HTML reads them as nothing or a bogus comment.
      guard let end = closingBracket(from: start + 2) else { return nil }
      position = end + 1
      return .ignored(start..<end + 1)
    case UInt8(ascii: "!"):
      return declaration(at: start)
    case UInt8(ascii: "?"):
      guard let end = closingBracket(from: start + 2) else { return nil }
      position = end + 1
      return .ignored(start..<end + 1)
    default:
      return nil
    }
  }

  private mutating func declaration(at start: Int) -> Token? {
    let count = input.count
    if hasPrefix("<!--", at: start) {
      position = commentEnd(from: start + 4)
      return .ignored(start..<position)
    }
    if hasPrefix("<![CDATA[", at: start) { return nil }
    if hasPrefix("<![", at: start) {
      // A marked section (`<![if !IE]>`), Microsoft's conditional comments among them.
      var index = start + 3
      while index + 1 < count, index < noSectionEndFrom {
        if base[index] == UInt8(ascii: "]") && base[index + 1] == UInt8(ascii: ">") {
          position = index + 2
          return .ignored(start..<position)
        }
        index += 1
      }
      noSectionEndFrom = min(noSectionEndFrom, start + 3)
      return nil
    }
    guard hasPrefixIgnoringCase("<!doctype", at: start),
      let end = closingBracket(from: start + 9)
    else { return nil }
    position = end + 1
    return .ignored(start..<position)
  }

  /// Where a comment whose text starts at `from` ends (just past it).
  private mutating func commentEnd(from: Int) -> Int {
    let count = input.count
    var index = from
    // `--`, white space, `>`.
    while index + 1 < count, index < noCommentCloseFrom {
      if base[index] == UInt8(ascii: "-") && base[index + 1] == UInt8(ascii: "-") {
        var after = index + 2
        while after < count && base[after].isHTMLSpace { after += 1 }
        if after < count && base[after] == UInt8(ascii: ">") { return after + 1 }
      }
      index += 1
    }
    noCommentCloseFrom = min(noCommentCloseFrom, from)
    // `--` and then anything but `>` up to a `>`.
    index = from
    while index + 1 < count {
      if base[index] == UInt8(ascii: "-") && base[index + 1] == UInt8(ascii: "-") {
        if let end = closingBracket(from: index + 2) { return end + 1 }
        break
      }
      index += 1
    }
    return count
  }

  /// The tag name starting at `start`: up to white space, `/`, `>` or `<`.
  private func name(from start: Int) -> Range<Int> {
    var index = start
    while index < input.count && !Self.endsName(base[index]) { index += 1 }
    return start..<index
  }

  private mutating func endTag(at start: Int) -> Token? {
    let name = name(from: start + 2)
    if name.upperBound < input.count && base[name.upperBound] == UInt8(ascii: ">") {
      // `</p>`: most end tags.
      position = name.upperBound + 1
      return .endTag(name: name, tag: start..<position)
    }
    guard let end = closingBracket(from: name.upperBound) else { return nil }
    position = end + 1
    return .endTag(name: name, tag: start..<end + 1)
  }

  private mutating func startTag(at start: Int) -> Token? {
    let count = input.count
    let name = name(from: start + 1)
    var index = name.upperBound
    attributeCount = 0
    var selfClosing = false
    while true {
      // Between attributes: white space, and `/` (which closes the tag when `>` follows).
      while index < count, base[index].isHTMLSpace || base[index] == UInt8(ascii: "/") {
        selfClosing = base[index] == UInt8(ascii: "/")
        index += 1
      }
      guard index < count else { return nil }
      if base[index] == UInt8(ascii: ">") {
        position = index + 1
        return .startTag(name: name, tag: start..<position, selfClosing: selfClosing)
      }
      if base[index] == UInt8(ascii: "<") {
        // feedparser ends a tag at a stray `<`, which then starts the next token.
        position = index
        return .startTag(name: name, tag: start..<index, selfClosing: false)
      }
      selfClosing = false
      let attributeStart = index
      index += 1
      while index < count, !Self.endsAttributeName(base[index]) { index += 1 }
      var attribute = Attribute(name: attributeStart..<index, value: nil, quote: 0)
      var afterName = index
      while afterName < count && base[afterName].isHTMLSpace { afterName += 1 }
      if afterName < count && base[afterName] == UInt8(ascii: "=") {
        index = afterName + 1
        while index < count && base[index].isHTMLSpace { index += 1 }
        guard index < count else { return nil }
        let first = base[index]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
          let valueStart = index + 1
          if let close = closingQuote(first, from: valueStart) {
            attribute.value = valueStart..<close
            attribute.quote = first
            index = close + 1
          } else {
            // An unclosed quote: the value runs to the next `>`.
            guard let end = closingBracket(from: valueStart) else {
              return nil
            }
            attribute.value = valueStart..<end
            attribute.quote = first
            index = end
          }
        } else {
          let valueStart = index
          while index < count, !base[index].isHTMLSpace, base[index] != UInt8(ascii: ">") {
            index += 1
          }
          attribute.value = valueStart..<index
        }
      } else {
        index = afterName
      }
      if attributeCount == storage.capacity { storage.grow() }
      (storage.base + attributeCount).initialize(to: attribute)
      attributeCount += 1
    }
  }

  private func hasPrefixIgnoringCase(_ prefix: StaticString, at index: Int) -> Bool {
    let length = prefix.utf8CodeUnitCount
    guard index + length <= input.count else { return false }
    let bytes = prefix.utf8Start
    for offset in 0..<length where base[index + offset].asciiLowercased != bytes[offset] {
      return false
    }
    return true
  }

  private func hasPrefix(_ prefix: StaticString, at index: Int) -> Bool {
    let length = prefix.utf8CodeUnitCount
    guard index + length <= input.count else { return false }
    let bytes = prefix.utf8Start
    for offset in 0..<length where base[index + offset] != bytes[offset] { return false }
    return true
  }

  // MARK: Bytes

  /// The index of the next `>` at or after `from`, if any.
  private mutating func closingBracket(from: Int) -> Int? {
    guard from < noBracketFrom else { return nil }
    let index = Self.first(UInt8(ascii: ">"), base, from: from, to: input.count)
    if index < input.count { return index }
    noBracketFrom = from
    return nil
  }

  /// The index of the next `quote` at or after `from`, if any.
  mutating func closingQuote(_ quote: UInt8, from: Int) -> Int? {
    let known = quote == UInt8(ascii: "\"") ? noQuoteFrom.double : noQuoteFrom.single
    guard from < known else { return nil }
    // Most values (sizes, words, links) end within sixty-four bytes: found there sixteen
    // bytes a look, without a `memchr` call (a call and its set-up cost more than the four).
    var block = from
    let blocksEnd = min(input.count, from &+ 64)
    while block &+ 16 <= blocksEnd {
      let bytes = UnsafeRawPointer(base + block).loadUnaligned(as: SIMD16<UInt8>.self)
      let isQuote = bytes .== SIMD16<UInt8>(repeating: quote)
      if Self.anyLane(isQuote) { return block &+ Self.firstLane(isQuote) }
      block &+= 16
    }
    let index = Self.first(quote, base, from: block, to: input.count)
    if index < input.count { return index }
    if quote == UInt8(ascii: "\"") { noQuoteFrom.double = from } else { noQuoteFrom.single = from }
    return nil
  }

  /// White space, `/`, `>` or `<`: a bit per byte below 64 (each test is a shift, where
  /// comparing with each of the eight took a branch apiece).
  @inline(__always)
  static func endsName(_ byte: UInt8) -> Bool {
    byte < 64 && (nameEnds &>> UInt64(byte)) & 1 != 0
  }

  /// `endsName`, or `=`.
  @inline(__always)
  static func endsAttributeName(_ byte: UInt8) -> Bool {
    byte < 64 && (attributeNameEnds &>> UInt64(byte)) & 1 != 0
  }

  /// Tab, LF, FF, CR, space, `/`, `<`, `>` (and `=`) as bits.
  private static var nameEnds: UInt64 { 0x5000_8001_0000_3600 }
  private static var attributeNameEnds: UInt64 { 0x7000_8001_0000_3600 }

  static func equalIgnoringCase(
    _ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, _ count: Int
  ) -> Bool {
    for index in 0..<count where left[index].asciiLowercased != right[index].asciiLowercased {
      return false
    }
    return true
  }
}

/// The attributes of one start tag, as the tokenizer reads them: plain memory that grows as a
/// tag needs and is reused from tag to tag and from text to text. An array appended to and
/// emptied at every tag cost a uniqueness check per attribute and a call per tag.
final class HTMLAttributeStorage {
  private(set) var base: UnsafeMutablePointer<HTMLTokenizer.Attribute>
  private(set) var capacity: Int

  init() {
    capacity = 16
    base = .allocate(capacity: capacity)
  }

  /// Twice the room, the attributes kept.
  func grow() {
    let larger = UnsafeMutablePointer<HTMLTokenizer.Attribute>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: capacity)
    base.deallocate()
    base = larger
    capacity *= 2
  }

  deinit { base.deallocate() }
}

extension UInt8 {
  /// HTML's ASCII white space: space, tab, LF, FF, CR.
  @inline(__always)
  var isHTMLSpace: Bool {
    let spaces: UInt64 = 0x1_0000_3600  // Bits 0x09, 0x0A, 0x0C, 0x0D and 0x20.
    return self <= 0x20 && (spaces &>> UInt64(self)) & 1 != 0
  }

  @inline(__always)
  var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }

  @inline(__always)
  var asciiLowercased: UInt8 { self >= 0x41 && self <= 0x5A ? self | 0x20 : self }
}
