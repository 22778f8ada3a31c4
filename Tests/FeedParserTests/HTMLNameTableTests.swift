import Testing

@testable import FeedParser

/// The name tables built from bytes (`HTMLNameTable.init(_:entries:foldsCase:)`, which HTML5's
/// references are read with) and from strings: the same rows, infos and spellings.
@Suite struct HTMLNameTableTests {
  /// References of one and two characters, the list's first and last, case kept apart.
  @Test func referencesReadFromTheList() {
    #expect(HTMLEntities.replacement(for: "AElig") == "\u{C6}")
    #expect(HTMLEntities.replacement(for: "aelig") == "\u{E6}")
    #expect(HTMLEntities.replacement(for: "eacute") == "\u{E9}")
    #expect(HTMLEntities.replacement(for: "Eacute") == "\u{C9}")
    #expect(HTMLEntities.replacement(for: "NotEqualTilde") == "\u{2242}\u{338}")
    #expect(HTMLEntities.replacement(for: "zfr") == "\u{1D537}")
    #expect(HTMLEntities.replacement(for: "zwnj") == "\u{200C}")
    #expect(HTMLEntities.replacement(for: "CounterClockwiseContourIntegral") == "\u{2233}")
    #expect(HTMLEntities.replacement(for: "EACUTE") == nil)
    #expect(HTMLEntities.replacement(for: "bogus") == nil)
    #expect(HTMLEntities.replacement(for: "zwn") == nil)
  }

  /// The names known without the table (`HTMLCharacterReference`'s common ones) decode to
  /// HTML5's characters, at the text's end and before more text, and are kept by `read`.
  @Test(arguments: [
    "lt", "gt", "amp", "reg", "quot", "apos", "nbsp", "copy", "bull", "euro", "auml", "ouml",
    "uuml", "mdash", "ndash", "laquo", "raquo", "lsquo", "rsquo", "ldquo", "rdquo", "trade",
    "hellip", "middot", "eacute", "egrave", "agrave", "ccedil",
  ])
  func commonReferencesAgreeWithTheTable(name: String) throws {
    let expected = try #require(HTMLEntities.replacement(for: name))
    for text in ["&\(name);", "&\(name);</p> and more text"] {
      let bytes = Array(text.utf8)
      bytes.withUnsafeBufferPointer { input in
        let decoded = HTMLCharacterReference.decode(input, at: 0)
        #expect(decoded.end == name.utf8.count + 2)
        var utf8: [UInt8] = []
        var word = decoded.utf8
        for _ in 0..<decoded.count {
          utf8.append(UInt8(truncatingIfNeeded: word))
          word >>= 8
        }
        #expect(utf8 == Array(expected.utf8))
        guard case .keep(let end) = HTMLCharacterReference.read(input, at: 0) else {
          Issue.record("&\(name); not kept")
          return
        }
        #expect(end == name.utf8.count + 2)
      }
    }
  }

  /// A table from bytes and one from strings agree, duplicates keeping their first info.
  @Test func bytesAndStringsGiveTheSameTable() {
    let names: [(String, UInt32)] = [
      ("a", 1), ("href", 2), ("linearGradient", 3), ("A", 4), ("lineargradient", 5),
      ("xlink:href", 6), ("href", 7), (String(repeating: "n", count: 32), 8),
    ]
    let fromStrings = HTMLNameTable<UInt32>(names)
    var bytes: [UInt8] = []
    var entries: [HTMLNameTable<UInt32>.Entry] = []
    for (name, info) in names {
      entries.append(.init(start: bytes.count, count: name.utf8.count, info: info))
      bytes.append(contentsOf: name.utf8)
    }
    let fromBytes = bytes.withUnsafeBufferPointer { bytes in
      entries.withUnsafeBufferPointer { HTMLNameTable<UInt32>(bytes, entries: $0, foldsCase: true) }
    }
    #expect(fromStrings.count == 5)
    #expect(fromBytes.count == fromStrings.count)
    for (name, _) in names + [("HREF", 0), ("LinearGradient", 0), ("b", 0), ("hre", 0)] {
      let rows = (fromStrings.row(of: name), fromBytes.row(of: name))
      #expect(rows.0 == rows.1, "\(name)")
      guard rows.0 >= 0, rows.0 == rows.1 else { continue }
      #expect(fromStrings.info(rows.0) == fromBytes.info(rows.1), "\(name)")
      #expect(Array(fromStrings.spelling(rows.0)) == Array(fromBytes.spelling(rows.1)), "\(name)")
    }
    #expect(fromBytes.row(of: "linearGradient") >= 0)
    #expect(
      Array(fromBytes.spelling(fromBytes.row(of: "LINEARGRADIENT"))) == Array("linearGradient".utf8)
    )
    #expect(fromBytes.info(fromBytes.row(of: "A")) == 1)
    #expect(fromBytes.info(fromBytes.row(of: "href")) == 2)
  }

  /// With `combining`, a name given twice spelled the same gets both infos; spelled in
  /// another case it keeps its first (the vocabulary's lists are built this way).
  @Test func combiningMergesTheSameSpelling() {
    let names: [(String, UInt32)] = [("img", 1), ("viewBox", 2), ("img", 4), ("viewbox", 8)]
    var bytes: [UInt8] = []
    var entries: [HTMLNameTable<UInt32>.Entry] = []
    for (name, info) in names {
      entries.append(.init(start: bytes.count, count: name.utf8.count, info: info))
      bytes.append(contentsOf: name.utf8)
    }
    let table = bytes.withUnsafeBufferPointer { bytes in
      entries.withUnsafeBufferPointer {
        HTMLNameTable<UInt32>(bytes, entries: $0, foldsCase: true, combining: |)
      }
    }
    #expect(table.count == 2)
    #expect(table.info(table.row(of: "IMG")) == 5)
    #expect(table.info(table.row(of: "viewbox")) == 2)
    #expect(Array(table.spelling(table.row(of: "viewbox"))) == Array("viewBox".utf8))
  }
}
