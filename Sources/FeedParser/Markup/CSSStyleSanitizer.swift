/// A `style` attribute reduced to the CSS that cannot fetch, run or hide anything, by
/// feedparser's rules (its `style_*` sanitizer tests check them):
///
/// 1. every `url(…)` goes;
/// 2. the rest must be made only of declarations of plain words, numbers, `#`, `%`, `!`,
///    quoted words and number lists in brackets (the "gauntlet": `expression(…)`, escapes,
///    comments and `@import` fail it), else the whole style goes;
/// 3. each declaration is kept, written `name: value;`, when its property is one of the
///    acceptable ones (`color`, `font-weight`, `text-align`, …); a `background*`, `border*`,
///    `margin*` or `padding*` one when every word of its value is a safe keyword or a plain
///    number, size or colour; an SVG paint property inside `svg`.
///
/// Works on the value's bytes; ASCII decides (a non-ASCII byte counts as a letter of a word,
/// as Python's `\w` takes non-ASCII letters).
enum CSSStyleSanitizer {
  /// The kept declarations joined by spaces, or nil when nothing is kept.
  static func sanitize(_ style: [UInt8], inSVG: Bool) -> [UInt8]? {
    let text = withoutURLs(style)
    guard passesGauntlet(text), isOnlyDeclarations(text) else { return nil }
    var output: [UInt8] = []
    var index = 0
    while let (name, value, end) = nextDeclaration(text, from: index) {
      index = end
      guard !value.isEmpty else { continue }
      let keep: Bool
      switch kind(ofProperty: text, name) {
      case .acceptable:
        keep = true
      case .family:
        keep = text[value].split(whereSeparator: \.isCSSSpace).allSatisfy {
          acceptableKeywords.contains(String(decoding: $0, as: UTF8.self)) || isPlainValue($0)
        }
      case .svg:
        keep = inSVG
      case .other:
        keep = false
      }
      guard keep else { continue }
      if !output.isEmpty { output.append(UInt8(ascii: " ")) }
      output.append(contentsOf: text[name])
      output.append(UInt8(ascii: ":"))
      output.append(UInt8(ascii: " "))
      output.append(contentsOf: text[value])
      output.append(UInt8(ascii: ";"))
    }
    return output.isEmpty ? nil : output
  }

  /// What a declaration's property is to the rules above.
  enum PropertyKind {
    /// One of `acceptableProperties`: kept.
    case acceptable
    /// `background*`, `border*`, `margin*` or `padding*`: kept when its value's words are.
    case family
    /// One of `acceptableSVGProperties`: kept inside `svg`.
    case svg
    case other
  }

  /// The kind of the property named `text[name]`, letter case aside. ASCII names (all real
  /// ones) are looked up on their bytes; a name with another byte goes through `String`'s
  /// lowercasing, as feedparser's `lower()` reads it. Making, lowercasing and hashing a
  /// `String` for each declaration was most of a style's cost.
  static func kind(ofProperty text: [UInt8], _ name: Range<Int>) -> PropertyKind {
    let isASCII = text[name].allSatisfy { $0 < 0x80 }
    guard isASCII else {
      let lowered = String(decoding: text[name], as: UTF8.self).lowercased()
      if acceptableProperties.contains(lowered) { return .acceptable }
      if let family = lowered.split(separator: "-", omittingEmptySubsequences: false).first,
        ["background", "border", "margin", "padding"].contains(family)
      {
        return .family
      }
      return acceptableSVGProperties.contains(lowered) ? .svg : .other
    }
    let row = text.withUnsafeBufferPointer {
      propertyTable.row($0.baseAddress! + name.lowerBound, name.count)
    }
    if let row, propertyTable.info(row) == .acceptable { return .acceptable }
    // The part before the first `-` (all of it without one) names the family.
    let familyEnd = text[name].firstIndex(of: UInt8(ascii: "-")) ?? name.upperBound
    let isFamily = text.withUnsafeBufferPointer {
      familyTable.row($0.baseAddress! + name.lowerBound, familyEnd - name.lowerBound) != nil
    }
    if isFamily { return .family }
    if let row, propertyTable.info(row) == .svg { return .svg }
    return .other
  }

  /// `acceptableProperties` and `acceptableSVGProperties` by their bytes, letter case folded.
  private static let propertyTable = HTMLNameTable<PropertyKind>(
    acceptableProperties.map { ($0, PropertyKind.acceptable) }
      + acceptableSVGProperties.map { ($0, PropertyKind.svg) })

  /// The property families whose values are judged word by word.
  private static let familyTable = HTMLNameTable<PropertyKind>(
    ["background", "border", "margin", "padding"].map { ($0, PropertyKind.family) })

  // MARK: The steps

  /// `url` `(` … `)` (no white space or `)` inside) and the white space after it become one
  /// space.
  static func withoutURLs(_ style: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(style.count)
    var index = 0
    let count = style.count
    while index < count {
      if index + 3 <= count, style[index] | 0x20 == UInt8(ascii: "u"),
        style[index + 1] | 0x20 == UInt8(ascii: "r"), style[index + 2] | 0x20 == UInt8(ascii: "l"),
        style[index..<index + 3].elementsEqual("url".utf8),
        let end = urlEnd(style, from: index + 3)
      {
        output.append(UInt8(ascii: " "))
        index = end
        continue
      }
      output.append(style[index])
      index += 1
    }
    return output
  }

  /// Just past `\s*(\s*[^\s)]+?\s*)\s*` at `from`, if it matches.
  private static func urlEnd(_ style: [UInt8], from: Int) -> Int? {
    var index = from
    let count = style.count
    while index < count && style[index].isCSSSpace { index += 1 }
    guard index < count, style[index] == UInt8(ascii: "(") else { return nil }
    index += 1
    while index < count && style[index].isCSSSpace { index += 1 }
    let argumentStart = index
    while index < count, !style[index].isCSSSpace, style[index] != UInt8(ascii: ")") {
      index += 1
    }
    guard index > argumentStart else { return nil }
    while index < count && style[index].isCSSSpace { index += 1 }
    guard index < count, style[index] == UInt8(ascii: ")") else { return nil }
    index += 1
    while index < count && style[index].isCSSSpace { index += 1 }
    return index
  }

  /// Every byte is a plain character (letters, digits, white space, `:,;#%.!`), or a `-`
  /// between two word characters, or inside `'words'`, `"words"` or `(1, 2)`.
  static func passesGauntlet(_ text: [UInt8]) -> Bool {
    var index = 0
    let count = text.count
    // The last byte was a word character taken alone: it may be the left side of `a-b`.
    var lastIsFreeWord = false
    while index < count {
      let byte = text[index]
      if byte.isCSSPlain {
        lastIsFreeWord = byte.isCSSWord
        index += 1
      } else if byte == UInt8(ascii: "-") {
        guard lastIsFreeWord, index + 1 < count, text[index + 1].isCSSWord else { return false }
        index += 2
        lastIsFreeWord = false
      } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
        var close = index + 1
        while close < count, text[close].isCSSWord || text[close].isCSSSpace { close += 1 }
        guard close > index + 1, close < count, text[close] == byte else { return false }
        index = close + 1
        lastIsFreeWord = false
      } else if byte == UInt8(ascii: "(") {
        var close = index + 1
        while close < count,
          text[close].isASCIIDigit || text[close] == UInt8(ascii: ",") || text[close].isCSSSpace
        {
          close += 1
        }
        guard close > index + 1, close < count, text[close] == UInt8(ascii: ")") else {
          return false
        }
        index = close + 1
        lastIsFreeWord = false
      } else if byte >= 0x80 || byte == UInt8(ascii: "_") {
        // A word character outside the plain set: only as the left side of `a-b`.
        guard index + 2 < count, text[index + 1] == UInt8(ascii: "-"), text[index + 2].isCSSWord
        else { return false }
        index += 3
        lastIsFreeWord = false
      } else {
        return false
      }
    }
    return true
  }

  /// Nothing but white space is left once every `name: value;` is taken out, in the order
  /// a left-to-right search finds them.
  static func isOnlyDeclarations(_ text: [UInt8]) -> Bool {
    var index = 0
    while index < text.count {
      if let end = declarationEnd(text, at: index, allowingLeadingSpace: true) {
        index = end
      } else if text[index].isCSSSpace {
        index += 1
      } else {
        return false
      }
    }
    return true
  }

  /// Just past `\s*[-\w]+\s*:\s*[^:;]*;?` at `index`, if it matches there.
  private static func declarationEnd(_ text: [UInt8], at start: Int, allowingLeadingSpace: Bool)
    -> Int?
  {
    guard let (_, value, _) = declaration(text, at: start, allowingLeadingSpace: true) else {
      return nil
    }
    var end = value.upperBound
    if end < text.count && text[end] == UInt8(ascii: ";") { end += 1 }
    return end
  }

  /// `[-\w]+\s*:\s*([^:;]*)` at `start` (after white space when allowed): the name, the
  /// value, and the end of the value.
  private static func declaration(_ text: [UInt8], at start: Int, allowingLeadingSpace: Bool)
    -> (Range<Int>, Range<Int>, Int)?
  {
    var index = start
    let count = text.count
    if allowingLeadingSpace { while index < count && text[index].isCSSSpace { index += 1 } }
    let nameStart = index
    while index < count, text[index].isCSSWord || text[index] == UInt8(ascii: "-") { index += 1 }
    let name = nameStart..<index
    guard !name.isEmpty else { return nil }
    while index < count && text[index].isCSSSpace { index += 1 }
    guard index < count, text[index] == UInt8(ascii: ":") else { return nil }
    index += 1
    while index < count && text[index].isCSSSpace { index += 1 }
    let valueStart = index
    while index < count, text[index] != UInt8(ascii: ":"), text[index] != UInt8(ascii: ";") {
      index += 1
    }
    return (name, valueStart..<index, index)
  }

  /// The next `name: value` found searching from `from`, as Python's `findall` finds them.
  private static func nextDeclaration(_ text: [UInt8], from: Int)
    -> (Range<Int>, Range<Int>, Int)?
  {
    var index = from
    while index < text.count {
      if let found = declaration(text, at: index, allowingLeadingSpace: false) { return found }
      index += 1
    }
    return nil
  }

  /// `#hex`, `rgb(…)`, or a number of at most two digits before and after a point (four
  /// without one) with an optional unit: the values feedparser lets through in `background`,
  /// `border`, `margin` and `padding`.
  static func isPlainValue(_ word: ArraySlice<UInt8>) -> Bool {
    let bytes = Array(word)
    if bytes.first == UInt8(ascii: "#") {
      return bytes.count > 1
        && bytes.dropFirst().allSatisfy {
          $0.isASCIIDigit || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
        }
    }
    if bytes.starts(with: "rgb(".utf8) { return isRGB(bytes.dropFirst(4)) }
    var index = 0
    var before = 0
    while index < bytes.count && bytes[index].isASCIIDigit {
      before += 1
      index += 1
    }
    var after = 0
    var point = false
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      point = true
      index += 1
      while index < bytes.count && bytes[index].isASCIIDigit {
        after += 1
        index += 1
      }
    }
    if point ? (before > 2 || after > 2) : before > 4 { return false }
    let unit = String(decoding: bytes[index...], as: UTF8.self)
    return ["", "cm", "em", "ex", "in", "mm", "pc", "pt", "px", "%", ",", ")"].contains(unit)
  }

  /// `\d+%?,\d*%?,?\d*%?\)?` after `rgb(`.
  private static func isRGB(_ rest: ArraySlice<UInt8>) -> Bool {
    var index = rest.startIndex
    func digits() -> Int {
      var run = 0
      while index < rest.endIndex && rest[index].isASCIIDigit {
        index += 1
        run += 1
      }
      return run
    }
    func optional(_ byte: UInt8) {
      if index < rest.endIndex && rest[index] == byte { index += 1 }
    }
    guard digits() > 0 else { return false }
    optional(UInt8(ascii: "%"))
    guard index < rest.endIndex, rest[index] == UInt8(ascii: ",") else { return false }
    index += 1
    _ = digits()
    optional(UInt8(ascii: "%"))
    optional(UInt8(ascii: ","))
    _ = digits()
    optional(UInt8(ascii: "%"))
    optional(UInt8(ascii: ")"))
    return index == rest.endIndex
  }

  private static let acceptableProperties: Set<String> = [
    "azimuth", "background-color", "border-bottom-color", "border-collapse", "border-color",
    "border-left-color", "border-right-color", "border-top-color", "clear", "color", "cursor",
    "direction", "display", "elevation", "float", "font", "font-family", "font-size",
    "font-style", "font-variant", "font-weight", "height", "letter-spacing", "line-height",
    "overflow", "pause", "pause-after", "pause-before", "pitch", "pitch-range", "richness",
    "speak", "speak-header", "speak-numeral", "speak-punctuation", "speech-rate", "stress",
    "text-align", "text-decoration", "text-indent", "unicode-bidi", "vertical-align",
    "voice-family", "volume", "white-space", "width",
  ]

  private static let acceptableKeywords: Set<String> = [
    "!important", "aqua", "auto", "black", "block", "blue", "bold", "both", "bottom", "brown",
    "center", "collapse", "dashed", "dotted", "fuchsia", "gray", "green", "italic", "left",
    "lime", "maroon", "medium", "navy", "none", "normal", "nowrap", "olive", "pointer",
    "purple", "red", "right", "silver", "solid", "teal", "top", "transparent", "underline",
    "white", "yellow",
  ]

  private static let acceptableSVGProperties: Set<String> = [
    "fill", "fill-opacity", "fill-rule", "stroke", "stroke-linecap", "stroke-linejoin",
    "stroke-opacity", "stroke-width",
  ]
}

extension UInt8 {
  fileprivate var isCSSSpace: Bool {
    self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D || self == 0x0B
  }

  fileprivate var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

  /// Python's `\w` on a byte: ASCII letters, digits, `_`, and any non-ASCII byte.
  fileprivate var isCSSWord: Bool {
    isASCIIAlphanumeric || self == UInt8(ascii: "_") || self >= 0x80
  }

  /// One character the gauntlet takes alone: `[:,;#%.\sa-zA-Z0-9!]`.
  fileprivate var isCSSPlain: Bool {
    isASCIIAlphanumeric || isCSSSpace || self == UInt8(ascii: ":") || self == UInt8(ascii: ",")
      || self == UInt8(ascii: ";") || self == UInt8(ascii: "#") || self == UInt8(ascii: "%")
      || self == UInt8(ascii: ".") || self == UInt8(ascii: "!")
  }
}
