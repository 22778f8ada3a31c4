/// Splits an RFC 822-style date into the words `RFC822DateForm` matches.
enum DateWordSplitter {
  /// Words of lower-case `bytes`: split at white space and commas, ending at `(` (an RFC 2822
  /// comment such as `(JST)` or JavaScript's `(Japan Standard Time)`). Two repairs for forms
  /// seen in feeds: a date written `01-Nov-2025` or `2006/09/15` becomes three words, and a zone
  /// glued to a time (`09:30:00+0900`, `09:30:00Z`) becomes its own word.
  static func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    var words: [ArraySlice<UInt8>] = []
    var start: Int? = nil
    var index = bytes.startIndex
    while index <= bytes.endIndex {
      let byte = index < bytes.endIndex ? bytes[index] : UInt8(ascii: "(")
      let isSeparator =
        byte.isXMLSpace || byte == UInt8(ascii: ",")
        || byte == UInt8(ascii: "(")
      if isSeparator {
        if let wordStart = start { appendRepaired(bytes[wordStart..<index], to: &words) }
        start = nil
        if byte == UInt8(ascii: "(") { break }
      } else if start == nil {
        start = index
      }
      index += 1
    }
    return words
  }

  private static func appendRepaired(_ word: ArraySlice<UInt8>, to words: inout [ArraySlice<UInt8>])
  {
    guard let first = word.first, first &- 0x30 < 10 else {
      words.append(word)
      return
    }
    if word.contains(UInt8(ascii: ":")) {
      // A time, maybe with a zone glued on: the zone starts at a sign or a letter.
      let zoneStart = word.firstIndex {
        $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 &- 0x61 < 26
      }
      if let zoneStart {
        words.append(word[..<zoneStart])
        words.append(word[zoneStart...])
      } else {
        words.append(word)
      }
      return
    }
    var partStart = word.startIndex
    for index in word.indices
    where word[index] == UInt8(ascii: "-") || word[index] == UInt8(ascii: "/") {
      words.append(word[partStart..<index])
      partStart = index + 1
    }
    words.append(word[partStart...])
  }
}
