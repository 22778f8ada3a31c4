/// The character encoding of an HTML page, decided before its bytes reach libxml2: a byte
/// order mark, else the HTTP `charset`, else a `<meta charset>` or `<meta http-equiv
/// content="…; charset=…">` within the first `window` bytes (the HTML standard's prescan reads
/// 1024), else UTF-8. libxml2's own switch on a `<meta>` in the middle of a push parse is not
/// used (`HTML_PARSE_IGNORE_ENC`): deciding up front keeps the outcome independent of chunking.
enum HTMLCharsetPrescan {
  static let window = 1024

  /// A canonical name (`utf-8`, `shift_jis`) for the first bytes of a page.
  static func charset(of bytes: ArraySlice<UInt8>, declared: String?) -> String {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "utf-8" }
    if bytes.starts(with: [0xFF, 0xFE]) { return "utf-16le" }
    if bytes.starts(with: [0xFE, 0xFF]) { return "utf-16be" }
    if let declared = declared.flatMap(CharsetNames.canonical) { return declared }
    return metaCharset(in: bytes).flatMap(CharsetNames.canonical) ?? "utf-8"
  }

  /// The first `charset=` inside a `<meta` tag; close enough to the standard's prescan for the
  /// pages that declare one, and never looking past `window`.
  private static func metaCharset(in bytes: ArraySlice<UInt8>) -> String? {
    let lowered = bytes.prefix(window).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }[...]
    var index = lowered.startIndex
    while let meta = find(Array("<meta".utf8), in: lowered, from: index) {
      let tagEnd = lowered[meta...].firstIndex(of: UInt8(ascii: ">")) ?? lowered.endIndex
      let tag = lowered[meta..<tagEnd]
      if let found = find(Array("charset".utf8), in: tag, from: tag.startIndex) {
        var cursor = found + "charset".utf8.count
        while cursor < tagEnd, lowered[cursor] == 0x20 { cursor += 1 }
        if cursor < tagEnd, lowered[cursor] == UInt8(ascii: "=") {
          cursor += 1
          while cursor < tagEnd,
            lowered[cursor] == 0x20 || lowered[cursor] == 0x22
              || lowered[cursor] == 0x27
          {
            cursor += 1
          }
          let start = cursor
          while cursor < tagEnd,
            !" \"';/>".utf8.contains(lowered[cursor])
          {
            cursor += 1
          }
          if cursor > start { return String(decoding: lowered[start..<cursor], as: UTF8.self) }
        }
      }
      index = tagEnd
    }
    return nil
  }

  private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>, from: Int) -> Int? {
    guard haystack.count >= needle.count, from <= haystack.endIndex - needle.count else {
      return nil
    }
    var index = from
    while index <= haystack.endIndex - needle.count {
      if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }
}
