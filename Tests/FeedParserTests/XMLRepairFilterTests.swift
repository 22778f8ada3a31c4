import Foundation
import TestSupport
import Testing

@testable import FeedParser

/// Runs the filter over `input` cut at `cuts` (offsets in increasing order). `output` is every
/// piece in order; `cdata` is the CDATA content pieces alone, each section's ending in `|`.
func runRepairFilter(_ input: [UInt8], cuts: [Int] = []) -> (
  output: [UInt8], repaired: Bool, cdata: [UInt8]
) {
  var filter = XMLRepairFilter()
  var output: [UInt8] = []
  var cdata: [UInt8] = []
  var inContent = false
  let collect = { (bytes: UnsafeRawBufferPointer, piece: XMLRepairFilter.Piece) in
    output += bytes
    if piece == .cdataContent {
      cdata += bytes
      inContent = true
    } else if inContent {
      cdata.append(UInt8(ascii: "|"))
      inContent = false
    }
  }
  var start = 0
  for end in cuts + [input.count] {
    input[start..<end].withUnsafeBytes { filter.process($0, collect) }
    start = end
  }
  filter.finish(collect)
  return (output, filter.repaired, cdata)
}

private func runRepairFilter(_ text: String) -> (output: String, repaired: Bool) {
  let result = runRepairFilter(Array(text.utf8))
  return (String(decoding: result.output, as: UTF8.self), result.repaired)
}

/// Input → expected output. Each row is one rule in one place of a document.
private let repairs: [(String, String)] = [
  // C0 controls go everywhere; tab, LF, CR and DEL stay.
  ("<t>a\u{1}b\u{0}c\u{1F}d</t>", "<t>abcd</t>"),
  ("<t a=\"x\u{8}y\">\t\n\r\u{7F}</t>", "<t a=\"xy\">\t\n\r\u{7F}</t>"),
  ("<t><![CDATA[a\u{1}b]]></t>", "<t><![CDATA[ab]]></t>"),
  ("<!-- a\u{2}b --><t/>", "<!-- ab --><t/>"),
  ("<?pi a\u{3}b?><t/>", "<?pi ab?><t/>"),
  // Bare ampersands.
  ("<t>AT&T</t>", "<t>AT&amp;T</t>"),
  ("<t>a & b</t>", "<t>a &amp; b</t>"),
  ("<t>&&amp;</t>", "<t>&amp;&amp;</t>"),
  ("<t>&;</t>", "<t>&amp;;</t>"),
  ("<t>&#;</t>", "<t>&amp;#;</t>"),
  ("<t>&#x;</t>", "<t>&amp;#x;</t>"),
  ("<t>&#12a;</t>", "<t>&amp;#12a;</t>"),
  ("<t>&#xG;</t>", "<t>&amp;#xG;</t>"),
  ("<t>&1abc;</t>", "<t>&amp;1abc;</t>"),
  ("<t>&nbsp</t>", "<t>&amp;nbsp</t>"),
  ("<t>&nbsp<b/></t>", "<t>&amp;nbsp<b/></t>"),
  ("<a href=\"/x?a=1&b=2\"/>", "<a href=\"/x?a=1&amp;b=2\"/>"),
  ("<t>tail &", "<t>tail &amp;"),
  ("<t>tail &am", "<t>tail &amp;am"),
  ("<t>&\u{1}amp;</t>", "<t>&amp;</t>"),
  // An `&` with more name bytes than any entity could have is bare, not held back.
  (
    "<t>&" + String(repeating: "a", count: 40) + ";</t>",
    "<t>&amp;" + String(repeating: "a", count: 40) + ";</t>"
  ),
  // A `<` that starts no markup is text.
  ("<t>a < b</t>", "<t>a &lt; b</t>"),
  ("<t>x<5 && y<=2</t>", "<t>x&lt;5 &amp;&amp; y&lt;=2</t>"),
  ("<t a=\"1 < 2\"/>", "<t a=\"1 &lt; 2\"/>"),
  ("<t><<b>x</b></t>", "<t>&lt;<b>x</b></t>"),
  ("<t>a <\u{1}b/></t>", "<t>a <b/></t>"),
  ("<t>a <\u{1} b</t>", "<t>a &lt; b</t>"),
  // HTML entities become numeric references; multi-scalar ones become several.
  ("<t>a&nbsp;b</t>", "<t>a&#160;b</t>"),
  ("<t a=\"&eacute;t&eacute;\"/>", "<t a=\"&#233;t&#233;\"/>"),
  ("<t>&hellip;&mdash;&copy;</t>", "<t>&#8230;&#8212;&#169;</t>"),
  ("<t>&NotEqualTilde;</t>", "<t>&#8770;&#824;</t>"),
  ("<t>&Afr;</t>", "<t>&#120068;</t>"),
  // Unknown names are kept as literal text.
  ("<t>&foo;</t>", "<t>&amp;foo;</t>"),
  ("<t>&foo-bar.baz;</t>", "<t>&amp;foo-bar.baz;</t>"),
  // Numeric references: HTML's upper-case X is made XML; forbidden characters go.
  ("<t>&#X41;</t>", "<t>&#65;</t>"),
  ("<t>&#0;&#1;&#x8;</t>", "<t></t>"),
  ("<t>&#xD800;&#xFFFF;&#x110000;&#99999999999999;</t>", "<t>&#65533;&#65533;&#65533;&#65533;</t>"),
  // Declared entities reach libxml2 unchanged, even when HTML has the same name.
  (
    "<!DOCTYPE r [<!ENTITY foo \"bar\"><!ENTITY nbsp \"&#160;\">]><r>&foo;&nbsp;&baz;</r>",
    "<!DOCTYPE r [<!ENTITY foo \"bar\"><!ENTITY nbsp \"&#160;\">]><r>&foo;&nbsp;&amp;baz;</r>"
  ),
  // A parameter entity is not a general one; a declaration inside a comment declares nothing.
  (
    "<!DOCTYPE r [<!ENTITY % foo \"x\"><!-- <!ENTITY bar \"y\"> -->]><r>&foo;&bar;</r>",
    "<!DOCTYPE r [<!ENTITY % foo \"x\"><!-- <!ENTITY bar \"y\"> -->]><r>&amp;foo;&amp;bar;</r>"
  ),
  // Quotes in the DOCTYPE may hold `]` and `>`; the DTD itself is left alone.
  (
    "<!DOCTYPE r SYSTEM \"a]>b\" [<!ATTLIST r a CDATA \"x>&y\"><!ENTITY q 'a>b'>]><r>&q;&</r>",
    "<!DOCTYPE r SYSTEM \"a]>b\" [<!ATTLIST r a CDATA \"x>&y\"><!ENTITY q 'a>b'>]><r>&q;&amp;</r>"
  ),
  // CDATA, comments and processing instructions keep their `&`; repairs resume after them.
  ("<t><![CDATA[a & b &nbsp; <x>]]>&</t>", "<t><![CDATA[a & b &nbsp; <x>]]>&amp;</t>"),
  ("<t><![CDATA[]]]>&</t>", "<t><![CDATA[]]]>&amp;</t>"),
  ("<t><![CDATA[a]>b]] >&]]>&</t>", "<t><![CDATA[a]>b]] >&]]>&amp;</t>"),
  ("<!-- & -- - -><t>&</t>-->&", "<!-- & -- - -><t>&</t>-->&amp;"),
  ("<?xml version=\"1.0\"?><?pi a & b ? > &?>&", "<?xml version=\"1.0\"?><?pi a & b ? > &?>&amp;"),
  // Almost-keywords are ordinary markup.
  ("<![CDAT&<!-&<!DOCTYP&", "<![CDAT&amp;<!-&amp;<!DOCTYP&amp;"),
  ("<<&", "&lt;&lt;&amp;"),
]

/// Documents the filter must pass through untouched, with `repaired` false.
private let cleanDocuments: [String] = [
  "<?xml version=\"1.0\" encoding=\"utf-8\"?><rss><channel><title>A &amp; B &lt;c&gt; &quot;&apos;</title></channel></rss>",
  "<t a='&#169;&#xA9;&#x1F600;'>&#10;&#9;&#13;</t>",
  "<t>日本語 &amp; テキスト</t>",
  "<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" \"http://my.netscape.com/publish/formats/rss-0.91.dtd\"><rss/>",
  "<t><![CDATA[<p>&nbsp;&</p>]]><!-- & --><?php echo '&'; ?></t>",
  "<a:b _x='1'><:c/><é/></a:b>",
  // A document cut off just after `<` stays as it is.
  "<rss><item><",
  // Declared names longer than HTML's longest are still references.
  "<!DOCTYPE r [<!ENTITY " + String(repeating: "n", count: 50) + " \"x\">]><r>&"
    + String(repeating: "n", count: 50)
    + ";</r>",
]

@Test("repairs", arguments: repairs)
func repairsInput(input: String, expected: String) {
  let result = runRepairFilter(input)
  #expect(result.output == expected)
  #expect(result.repaired)
}

@Test("leaves well-formed documents alone", arguments: cleanDocuments)
func leavesCleanDocument(input: String) {
  let result = runRepairFilter(input)
  #expect(result.output == input)
  #expect(!result.repaired)
}

/// The inside of each CDATA section comes out as content pieces, without its `]]>`; a `]` is
/// held until the bytes after it show it does not begin the end.
@Test(arguments: [
  ("<t><![CDATA[a & b <x>]]></t>", "a & b <x>|"),
  ("<t><![CDATA[]]]>x<![CDATA[]]></t>", "]|"),
  ("<t><![CDATA[a]>b]] >&]]></t>", "a]>b]] >&|"),
  ("<t><![CDATA[x]]]]>", "x]]|"),
  ("<t><![CDATA[a\u{1}\n]", "a\n]"),
  ("<t a='<![CDATA['>", "'>"),
])
func cdataContentIsItsOwnPiece(input: String, content: String) {
  let bytes = Array(input.utf8)
  #expect(runRepairFilter(bytes).cdata == Array(content.utf8))
  #expect(runRepairFilter(bytes, cuts: Array(0..<bytes.count)).cdata == Array(content.utf8))
}

/// Long plain runs of character data come out as pieces of their own; short ones, those
/// libxml2 must read itself (a CR, `]]>`, a declared entity), and the whole text of an element
/// stay in the markup.
@Test func longPlainCharacterDataIsItsOwnPiece() {
  let long = String(repeating: "x", count: XMLRepairFilter.shortestCharacterData + 6)
  func pieces(_ text: String) -> [String] {
    var filter = XMLRepairFilter()
    var found: [String] = []
    let collect = { (bytes: UnsafeRawBufferPointer, piece: XMLRepairFilter.Piece) in
      if piece == .characterData { found.append(String(decoding: bytes, as: UTF8.self)) }
    }
    Array(text.utf8).withUnsafeBytes { filter.process($0, collect) }
    filter.finish(collect)
    return found
  }
  #expect(pieces("<t>\(long)<b/></t>") == [long])
  #expect(pieces("<t a='1'><b/>\(long) &lt;&#233;&quot;</t>") == [long + " &lt;&#233;&quot;"])
  #expect(pieces("<t><b/>\(long)&nbsp;</t>") == [long + "&#160;"])
  #expect(pieces("<t>\(long)</u>") == [long])
  // The whole text of an element stays with its tags: `StreamingFeedParser` reads such an
  // element without libxml2, tags and text together.
  #expect(pieces("<t>\(long)</t>").isEmpty)
  #expect(pieces("<x:t a='>'>\(long)</x:t >").isEmpty)
  #expect(pieces("<t>short</t>").isEmpty)
  #expect(pieces("<t>\(long)\r\n</t>").isEmpty)
  #expect(pieces("<t>\(long)]]></t>").isEmpty)
  #expect(pieces("<!DOCTYPE t [<!ENTITY e 'E'>]><t>\(long)&e;</t>").isEmpty)
  #expect(pieces("<t>\(long)").isEmpty)
}

/// In Shift_JIS, ゾ is 0x83 0x5D: its trail byte is `]`, so `ゾ]>` is not the end of a CDATA
/// section, and the `&` after it is still CDATA. The document is transcoded to UTF-8 before the
/// filter reads it, which is what keeps the trail byte from counting; checked end to end.
@Test func shiftJISTrailBytesDoNotEndCDATA() {
  let input: [UInt8] =
    Array(#"<?xml version="1.0" encoding="Shift_JIS"?><rss version="2.0"><channel>"#.utf8)
    + Array("<item><title><![CDATA[".utf8) + [0x83, 0x5D] + Array("]>&]]>&amp;</title>".utf8)
    + Array("</item></channel></rss>".utf8)
  let whole = parse(input)
  #expect(whole.items.first?.title == "ゾ]>&&")
  #expect(whole.result == FeedParseResult(wellformed: true, encoding: "shift_jis", failure: nil))
  for cut in 1..<input.count {
    #expect(parse(input, chunkSizes: [cut]) == whole)
  }
}

/// The documents the chunking test cuts up: every rule's input, the clean ones, and the
/// sample feeds.
private func chunkingCorpus() -> [[UInt8]] {
  var corpus = (repairs.map(\.0) + cleanDocuments).map { Array($0.utf8) }
  let feeds =
    (try? FileManager.default.contentsOfDirectory(atPath: RepositoryPaths.feeds.path)) ?? []
  for name in feeds.sorted() where name.hasSuffix(".xml") || name.hasSuffix(".html") {
    if let data = FileManager.default.contents(
      atPath: RepositoryPaths.feeds.appendingPathComponent(name).path)
    {
      corpus.append(Array(data))
    }
  }
  return corpus
}

/// The output for any chunking is byte-identical to the output for the whole input: one-byte
/// chunks, every split in two, and seeded random chunkings.
@Test func outputDoesNotDependOnChunking() {
  var generator = SplitMix64(seed: 0xC4A9_C0DE)
  for input in chunkingCorpus() {
    let whole = runRepairFilter(input)
    #expect(runRepairFilter(input, cuts: Array(0..<input.count)) == whole)
    if input.count <= 600 {
      for cut in 0...input.count {
        #expect(runRepairFilter(input, cuts: [cut]) == whole, "cut at \(cut)")
      }
    }
    for _ in 0..<20 {
      var cuts: [Int] = []
      var position = 0
      while true {
        position += 1 + Int(generator.next() % 48)
        guard position < input.count else { break }
        cuts.append(position)
      }
      #expect(runRepairFilter(input, cuts: cuts) == whole, "cuts \(cuts)")
    }
  }
}

/// Random mixes of the bytes the filter cares about: chunking invariance holds for them too,
/// and references in the output are always complete.
@Test func randomMarkupIsChunkInvariant() {
  var generator = SplitMix64(seed: 7)
  let pieces = [
    "&", "&amp;", "&nbsp;", "&#", "x", "1", ";", "<", "!", "--", "-", ">", "]]>", "<![CDATA[", "<?",
    "?>",
    "<!DOCTYPE r [", "<!ENTITY e 'v'>", "]>", "&e;", "a", " ", "\u{1}", "\"", "'", "%", "</", "<a>",
    "< ", "b",
  ].map { Array($0.utf8) }
  for _ in 0..<2_000 {
    var input: [UInt8] = []
    for _ in 0..<(generator.next() % 30) {
      input += pieces[Int(generator.next() % UInt64(pieces.count))]
    }
    let whole = runRepairFilter(input)
    #expect(
      runRepairFilter(input, cuts: Array(0..<input.count)) == whole,
      "\(String(decoding: input, as: UTF8.self))")
    let cut = input.isEmpty ? 0 : Int(generator.next() % UInt64(input.count))
    #expect(runRepairFilter(input, cuts: [cut]) == whole)
  }
}

/// The well-formed sample feeds pass through byte for byte, with `repaired` false; the ones in
/// other encodings as the UTF-8 the filter is given.
@Test(arguments: [
  "rss20.xml", "rss10-hatena.xml", "atom10.xml", "atom03-blogger.xml", "podcast.xml",
  "japanese-euc-jp.xml",
  "japanese-shift_jis.xml",
])
func leavesWellFormedSampleFeedAlone(name: String) throws {
  let url = RepositoryPaths.feeds.appendingPathComponent(name)
  var bytes = Array(try Data(contentsOf: url))
  for encoding in ["shift_jis", "euc-jp"] where name.contains(encoding) {
    let transcoder = try #require(IconvTranscoder(from: CharsetNames.decoder(for: encoding)))
    var utf8: [UInt8] = []
    bytes.withUnsafeBytes { transcoder.process($0) { utf8 += $0 } }
    transcoder.finish { utf8 += $0 }
    bytes = utf8
  }
  let result = runRepairFilter(bytes)
  #expect(result.output == bytes)
  #expect(!result.repaired)
}

/// The five predefined entities and character references, read from a reference's body.
@Suite struct ReferenceBodyTests {
  @Test(arguments: [
    ("lt", UInt32?(0x3C)), ("gt", 0x3E), ("amp", 0x26), ("quot", 0x22), ("apos", 0x27),
    ("#38", 0x26), ("#x26", 0x26), ("ap", nil), ("amq", nil), ("quo", nil), ("qoot", nil),
    ("apoz", nil), ("aqos", nil), ("nbsp", nil), ("#0", nil), ("", nil),
  ])
  func bodies(_ body: String, _ expected: UInt32?) {
    Array(body.utf8).withUnsafeBytes {
      #expect(XMLReferenceSyntax.character(ofBody: $0) == expected, "&\(body);")
    }
  }
}
