import FeedPullSupport

/// Decides a document's character encoding from its first bytes, before libxml2 sees any
/// (docs/libraries.md: libxml2 lets the XML declaration beat a BOM, and UTF-8 declared ISO-8859-1
/// comes out as silent mojibake). Order: a BOM; the byte pattern of `<?` in UTF-16/32
/// (XML 1.0 appendix F); then the HTTP `charset` and the XML declaration, settled by the
/// bytes when they disagree.
struct EncodingDecision: Equatable {
  /// Lower-case IANA name, as reported and as given to libxml2.
  var name: String
  /// Bytes to drop before parsing: a BOM, and white space before `<?xml` that libxml2 rejects.
  var skip: Int
  /// False when the HTTP charset and the declaration disagreed and the bytes fit neither, or
  /// an encoding was named that cannot be decoded.
  var trustworthy = true
  /// Nothing named the encoding: UTF-8, until a byte is not (`UTF8Repair`).
  var isUndeclared = false
}

enum EncodingSniffer {
  /// Bytes to wait for before settling a disagreement between HTTP and the declaration.
  static let validationWindow = 8192
  /// Bytes to wait for the end of an XML declaration.
  static let declarationWindow = 1024

  /// The decision, or nil when more bytes are needed (and `isFinal` is false).
  static func decide(_ bytes: [UInt8], declaredCharset: String?, isFinal: Bool)
    -> EncodingDecision?
  {
    if !isFinal && bytes.count < 4 { return nil }
    if let decision = byteOrderMark(bytes) ?? utf16Or32Pattern(bytes) { return decision }
    if hasPrefix(bytes, at: 0, [0x4C, 0x6F, 0xA7, 0x94]) { return ebcdic(bytes, isFinal: isFinal) }
    var start = 0
    while start < bytes.count, bytes[start].isXMLSpace { start += 1 }
    if !isFinal && bytes.count - start < 5
      && bytes[start...].elementsEqual(Array("<?xml".utf8).prefix(bytes.count - start))
    {
      return nil  // Perhaps the start of `<?xml`: wait for the rest.
    }
    var declared: String?
    var skip = 0
    if hasPrefix(bytes, at: start, "<?xml") {
      guard let end = declarationEnd(bytes, from: start) else {
        if !isFinal && bytes.count < declarationWindow { return nil }
        return settle(http: declaredCharset, declared: nil, bytes, skip: start, isFinal: true)
      }
      declared = attribute(encodingName, in: bytes[start..<end])
      skip = start
      // The declaration has done its work here; libxml2 would only re-read the encoding name
      // and reject forms it does not accept ("437"), though the encoding is forced anyway.
      if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">")
      {
        skip = end + 2
      }
    }
    let http = declaredCharset.flatMap(CharsetNames.canonical)
    return settle(
      http: http, declared: declared.flatMap(CharsetNames.canonical), bytes, skip: skip,
      isFinal: isFinal)
  }

  private static func settle(
    http: String?, declared: String?, _ bytes: [UInt8], skip: Int, isFinal: Bool
  ) -> EncodingDecision? {
    // The bytes are ASCII-compatible here: a UTF-16/32 name is wrong whoever gave it.
    let http = http.flatMap { CharsetNames.family($0) == nil ? $0 : nil }
    let declared = declared.flatMap { CharsetNames.family($0) == nil ? $0 : nil }
    switch (http, declared) {
    case (nil, nil):
      // UTF-8 (XML 1.0 section 4.3.3), decided at once so that the first items need not wait
      // for more bytes; from the first byte that is not UTF-8 on, windows-1252 (`UTF8Repair`).
      return EncodingDecision(name: "utf-8", skip: skip, isUndeclared: true)
    case (let only?, nil), (nil, let only?): return EncodingDecision(name: only, skip: skip)
    case (let http?, let declared?):
      if http == declared { return EncodingDecision(name: http, skip: skip) }
      if !isFinal && bytes.count < validationWindow { return nil }
      // Exactly the window, however the bytes arrived: the decision must not depend on chunking.
      let sample = bytes[min(skip, bytes.count)..<min(bytes.count, validationWindow)]
      // RFC 7303 section 3.2: the HTTP charset comes first when the bytes allow it. But a
      // single-byte charset allows any bytes: a server's default `charset=ISO-8859-1` on a
      // UTF-8 feed that declares UTF-8 would then win and print mojibake. Bytes valid in a
      // multi-byte encoding are evidence for it, so such a candidate wins over a single-byte one.
      let valid = [http, declared].filter {
        CharsetValidator.isValid(sample, in: CharsetNames.decoder(for: $0)) == true
      }
      if let chosen = valid.first(where: { !isSingleByte($0) }) ?? valid.first {
        return EncodingDecision(name: chosen, skip: skip)
      }
      return EncodingDecision(name: http, skip: skip, trustworthy: false)
    }
  }

  /// True for encodings in which every byte sequence is valid (ISO-8859-x, windows-125x, KOI8…),
  /// whose validity therefore says nothing about the bytes.
  private static func isSingleByte(_ name: String) -> Bool {
    !multiByteEncodings.contains(name)
  }

  private static let multiByteEncodings: Set<String> = [
    "utf-8", "shift_jis", "windows-31j", "euc-jp", "iso-2022-jp", "euc-kr", "gb2312", "gbk",
    "gb18030", "big5", "big5-hkscs",
  ]

  /// XML 1.0 appendix F: `<?xm` in EBCDIC. The declaration, read as IBM037 (its ASCII-range
  /// characters are the same in every EBCDIC page), names the page.
  private static func ebcdic(_ bytes: [UInt8], isFinal: Bool) -> EncodingDecision? {
    guard let end = bytes.firstIndex(of: 0x6E) else {  // `>` in EBCDIC
      if !isFinal && bytes.count < declarationWindow { return nil }
      return EncodingDecision(name: "ibm037", skip: 0)
    }
    let translated = bytes[...end].map { ebcdicToASCII[$0] ?? UInt8(ascii: "?") }
    let name = attribute(encodingName, in: translated[...]).flatMap(CharsetNames.canonical)
    return EncodingDecision(name: name ?? "ibm037", skip: 0)
  }

  /// The EBCDIC (IBM037) bytes of the characters an XML declaration uses.
  private static let ebcdicToASCII: [UInt8: UInt8] = {
    var table: [UInt8: UInt8] = [
      0x40: 0x20, 0x4B: 0x2E, 0x4C: 0x3C, 0x6F: 0x3F, 0x6E: 0x3E,
      0x7E: 0x3D, 0x7F: 0x22, 0x7D: 0x27, 0x60: 0x2D, 0x6D: 0x5F, 0x61: 0x2F, 0x7A: 0x3A,
    ]
    let rows: [(UInt8, String)] = [
      (0x81, "abcdefghi"), (0x91, "jklmnopqr"), (0xA2, "stuvwxyz"),
      (0xC1, "ABCDEFGHI"), (0xD1, "JKLMNOPQR"), (0xE2, "STUVWXYZ"), (0xF0, "0123456789"),
    ]
    for (start, letters) in rows {
      for (offset, letter) in letters.utf8.enumerated() { table[start + UInt8(offset)] = letter }
    }
    return table
  }()

  private static func byteOrderMark(_ bytes: [UInt8]) -> EncodingDecision? {
    if hasPrefix(bytes, at: 0, [0x00, 0x00, 0xFE, 0xFF]) {
      return EncodingDecision(name: "utf-32be", skip: 4)
    }
    if hasPrefix(bytes, at: 0, [0xFF, 0xFE, 0x00, 0x00]) {
      return EncodingDecision(name: "utf-32le", skip: 4)
    }
    if hasPrefix(bytes, at: 0, [0xFE, 0xFF]) { return EncodingDecision(name: "utf-16be", skip: 2) }
    if hasPrefix(bytes, at: 0, [0xFF, 0xFE]) { return EncodingDecision(name: "utf-16le", skip: 2) }
    if hasPrefix(bytes, at: 0, [0xEF, 0xBB, 0xBF]) {
      var skip = 3
      while skip < bytes.count, bytes[skip].isXMLSpace { skip += 1 }
      if !hasPrefix(bytes, at: skip, "<?xml") { skip = 3 }
      return EncodingDecision(name: "utf-8", skip: skip)
    }
    return nil
  }

  /// XML 1.0 appendix F: without a BOM, the first characters (`<?xml`, or any ASCII) show
  /// UTF-16 or UTF-32 and their byte order through the position of the zero bytes.
  private static func utf16Or32Pattern(_ bytes: [UInt8]) -> EncodingDecision? {
    guard bytes.count >= 4 else { return nil }
    let (b0, b1, b2, b3) = (bytes[0], bytes[1], bytes[2], bytes[3])
    if b0 == 0 && b1 == 0 && b2 == 0 && b3 != 0 {
      return EncodingDecision(name: "utf-32be", skip: 0)
    }
    if b0 != 0 && b1 == 0 && b2 == 0 && b3 == 0 {
      return EncodingDecision(name: "utf-32le", skip: 0)
    }
    if b0 == 0 && b1 != 0 && b2 == 0 && b3 != 0 {
      return EncodingDecision(name: "utf-16be", skip: 0)
    }
    if b0 != 0 && b1 == 0 && b2 != 0 && b3 == 0 {
      return EncodingDecision(name: "utf-16le", skip: 0)
    }
    return nil
  }

  private static func declarationEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start + 5
    while index + 1 < min(bytes.count, declarationWindow) {
      if bytes[index] == UInt8(ascii: "?") && bytes[index + 1] == UInt8(ascii: ">") {
        return index
      }
      if bytes[index] == UInt8(ascii: "<") || bytes[index] == UInt8(ascii: ">") { return index }
      index += 1
    }
    return nil
  }

  /// A pseudo-attribute of the XML declaration, quoted with ' or ", found in its bytes: the
  /// first occurrence of `name`, white space (XML's: space, tab, CR, LF), `=`, white space, a
  /// quoted value.
  private static func attribute(_ name: [UInt8], in declaration: ArraySlice<UInt8>) -> String? {
    guard var index = ByteSearch.firstStart(of: name, in: declaration) else { return nil }
    index += name.count
    while index < declaration.endIndex, declaration[index].isXMLSpace { index += 1 }
    guard index < declaration.endIndex, declaration[index] == UInt8(ascii: "=") else {
      return nil
    }
    index += 1
    while index < declaration.endIndex, declaration[index].isXMLSpace { index += 1 }
    guard index < declaration.endIndex else { return nil }
    let quote = declaration[index]
    guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
    index += 1
    guard let close = declaration[index...].firstIndex(of: quote), close > index else {
      return nil
    }
    return String(decoding: declaration[index..<close], as: UTF8.self)
  }

  private static let encodingName = Array("encoding".utf8)

  private static func hasPrefix(_ bytes: [UInt8], at start: Int, _ prefix: [UInt8]) -> Bool {
    guard bytes.count - start >= prefix.count else { return false }
    for (offset, byte) in prefix.enumerated() where bytes[start + offset] != byte { return false }
    return true
  }

  private static func hasPrefix(_ bytes: [UInt8], at start: Int, _ prefix: String) -> Bool {
    hasPrefix(bytes, at: start, Array(prefix.utf8))
  }
}
