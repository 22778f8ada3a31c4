import Testing

@testable import FeedParser

/// The encoding is decided before libxml2 reads a byte: BOM, UTF-16/32 pattern, then the HTTP
/// charset and the declaration, with the bytes settling a disagreement.
@Suite struct EncodingTests {
  static let japanese = "日本語のフィード"

  @Test(arguments: [
    ("encoding/shift_jis.xml", "shift_jis"), ("encoding/euc-jp.xml", "euc-jp"),
    ("encoding/iso-2022-jp.xml", "iso-2022-jp"), ("encoding/utf-16le-bom.xml", "utf-16le"),
    ("encoding/utf-16be-nobom.xml", "utf-16be"), ("encoding/utf-32le-bom.xml", "utf-32le"),
  ])
  func japaneseText(path: String, encoding: String) throws {
    let outcome = try parseFixture(path)
    #expect(outcome.result == FeedParseResult(wellformed: true, encoding: encoding, failure: nil))
    #expect(outcome.channel?.title == Self.japanese)
    #expect(outcome.items.first?.title == "記事一")
  }

  /// The declaration's `encoding`, as its grammar allows it to be written, and forms that name
  /// nothing (read as UTF-8, as undeclared).
  @Test(arguments: [
    (#"<?xml version="1.0" encoding="ISO-8859-1"?>"#, "iso-8859-1"),
    (#"<?xml version='1.0' encoding='windows-1252'?>"#, "windows-1252"),
    ("<?xml version=\"1.0\"\r\n  encoding \t=\r\n 'koi8-r' ?>", "koi8-r"),
    (#"<?xml encoding="iso-8859-2" version="1.0"?>"#, "iso-8859-2"),
    (#"<?xml version="1.0" standalone="yes" encoding="iso-8859-5"?>"#, "iso-8859-5"),
    (#"<?xml version="1.0" encoding=""?>"#, "utf-8"),
    (#"<?xml version="1.0" encoding=iso-8859-1?>"#, "utf-8"),
    (#"<?xml version="1.0" encoding="iso-8859-1?>"#, "utf-8"),
    (#"<?xml version="1.0" encoding?>"#, "utf-8"),
    (#"<?xml version="1.0"?>"#, "utf-8"),
  ])
  func declaredEncoding(declaration: String, name: String) throws {
    let bytes = Array((declaration + "<rss version=\"2.0\"><channel/></rss>").utf8)
    let decision = try #require(EncodingSniffer.decide(bytes, declaredCharset: nil, isFinal: true))
    #expect(decision.name == name)
  }

  /// Converting to UTF-8 first lets the byte repairs serve UTF-16 as well.
  @Test func htmlEntitiesRepairedInUTF16() {
    let text =
      "<rss version=\"2.0\"><channel><title>Tom & Jerry&nbsp;&eacute;t&eacute;</title></channel></rss>"
    let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let outcome = parse(bytes)
    #expect(outcome.channel?.title == "Tom & Jerry\u{A0}été")
    #expect(
      outcome.result == FeedParseResult(wellformed: false, encoding: "utf-16le", failure: nil))
    #expect(parse(bytes, chunkSizes: Array(repeating: 1, count: bytes.count)) == outcome)
  }

  /// One byte that is not Shift_JIS becomes U+FFFD; libxml2 converting by itself lost the whole
  /// chunk around it, so the outcome depended on the chunking (a fuzzer find).
  @Test func invalidShiftJISByteIsReplaced() {
    var bytes = Array(
      "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><rss version=\"2.0\"><channel><title>a~b</title><item><title>i</title></item></channel></rss>"
        .utf8)
    bytes[bytes.firstIndex(of: UInt8(ascii: "~"))!] = 0xFF
    let outcome = parse(bytes)
    #expect(outcome.channel?.title == "a\u{FFFD}b")
    #expect(outcome.items.count == 1)
    #expect(
      outcome.result == FeedParseResult(wellformed: false, encoding: "shift_jis", failure: nil))
    for size in [1, 2, 3, 50] {
      #expect(
        parse(bytes, chunkSizes: Array(repeating: size, count: bytes.count / size + 1)) == outcome)
    }
  }

  @Test func shiftJISWithWindowsExtensions() throws {
    let outcome = try parseFixture("encoding/shift_jis-windows-extensions.xml")
    #expect(
      outcome.result == FeedParseResult(wellformed: true, encoding: "shift_jis", failure: nil))
    #expect(outcome.channel?.title == "①②③ ㈱テスト")
    #expect(outcome.items.first?.title == "第Ⅲ章")
  }

  @Test(arguments: [
    ("encoding/iso-8859-1.xml", "iso-8859-1", "Café déjà vu"),
    ("encoding/windows-1252.xml", "windows-1252", "€5 “quoted”"),
    ("encoding/utf8-bom-latin1-declared.xml", "utf-8", "Café"),
    ("encoding/leading-space.xml", "utf-8", "Spaced"),
  ])
  func westernText(path: String, encoding: String, title: String) throws {
    let outcome = try parseFixture(path)
    #expect(outcome.result == FeedParseResult(wellformed: true, encoding: encoding, failure: nil))
    #expect(outcome.channel?.title == title)
  }

  /// Mac code pages that glibc's iconv lacks, read by table as feedparser (Python's codecs)
  /// reads them; before, such a feed was read as UTF-8, every letter past ASCII a U+FFFD.
  @Test(arguments: [
    ("encoding/mac-greek.xml", "mac-greek", "Αθήνα: «Ελληνικά» – Ä €", "Ώρα ψ"),
    ("encoding/mac-turkish.xml", "mac-turkish", "İstanbul’da ğüşıöç Ğ", "Şişli ı"),
  ])
  func macCodePagesReadByTable(path: String, encoding: String, title: String, item: String)
    throws
  {
    let outcome = try parseFixture(path)
    #expect(outcome.result == FeedParseResult(wellformed: true, encoding: encoding, failure: nil))
    #expect(outcome.channel?.title == title)
    #expect(outcome.items.first?.title == item)
  }

  /// Every upper byte of the tables becomes its character, and the byte 0x80 becomes Ä in both,
  /// as in feedparser's own test of these encodings.
  @Test func everyUpperByteOfATableDecodes() {
    for (declared, table) in [
      ("macgreek", SingleByteCharsets.macGreek), ("mac_turkish", SingleByteCharsets.macTurkish),
    ] {
      let head = Array(
        "<?xml version=\"1.0\" encoding=\"\(declared)\"?><rss version=\"2.0\"><channel><title>".utf8
      )
      let tail = Array("</title></channel></rss>".utf8)
      // 0x80-0xFF, without the bytes that are markup once decoded (none of them are).
      let upper = (0x80...0xFF).map { UInt8($0) }
      let outcome = parse(head + upper + tail)
      let expected = String(
        String.UnicodeScalarView(table.map { Unicode.Scalar($0)! }))
      #expect(outcome.channel?.title == expected.trimmingSpaces(), "\(declared)")
      #expect(outcome.channel?.title?.hasPrefix("Ä") == true)
      #expect(outcome.result.wellformed, "\(declared)")
    }
  }

  static func document(_ declared: String, title: String) -> String {
    "<?xml version=\"1.0\" encoding=\"\(declared)\"?><rss version=\"2.0\"><channel><title>\(title)</title></channel></rss>"
  }

  @Test func httpCharsetWinsWhenTheBytesFitIt() {
    // UTF-8 bytes, declared ISO-8859-1, served as utf-8: the bytes are valid UTF-8.
    let outcome = parse(Array(Self.document("iso-8859-1", title: "Café").utf8), charset: "utf-8")
    #expect(outcome.channel?.title == "Café")
    #expect(outcome.result == FeedParseResult(wellformed: true, encoding: "utf-8", failure: nil))
  }

  @Test func declarationWinsWhenTheBytesDoNotFitHTTP() {
    // ISO-8859-1 bytes (é = E9), declared ISO-8859-1, served as utf-8: not valid UTF-8.
    var bytes = Array(Self.document("ISO-8859-1", title: "Caf_").utf8)
    bytes[bytes.firstIndex(of: UInt8(ascii: "_"))!] = 0xE9
    let outcome = parse(bytes, charset: "UTF-8")
    #expect(outcome.channel?.title == "Café")
    #expect(
      outcome.result == FeedParseResult(wellformed: true, encoding: "iso-8859-1", failure: nil))
  }

  /// The disagreement is settled on the first 8 KiB alone, so chunking cannot change it: here
  /// the byte that is invalid UTF-8 comes after the window.
  @Test func disagreementIsSettledOnAFixedWindow() {
    let padding = String(repeating: "<item><title>plain</title></item>", count: 300)
    var bytes = Array(Self.document("iso-8859-1", title: "x").utf8)
    bytes.insert(contentsOf: Array(padding.utf8) + [0xE9], at: bytes.count - 17)
    let whole = parse(bytes, charset: "utf-8")
    #expect(whole.result.encoding == "utf-8")
    #expect(whole.result.wellformed == false)
    #expect(
      parse(bytes, chunkSizes: Array(repeating: 100, count: bytes.count / 100), charset: "utf-8")
        == whole)
  }

  @Test func httpCharsetAloneDecides() {
    var bytes = Array("<rss version=\"2.0\"><channel><title>Caf_</title></channel></rss>".utf8)
    bytes[bytes.firstIndex(of: UInt8(ascii: "_"))!] = 0xE9
    let outcome = parse(bytes, charset: "iso-8859-1")
    #expect(outcome.channel?.title == "Café")
    #expect(outcome.result.encoding == "iso-8859-1")
  }

  @Test func utf16DeclaredOnASCIIBytesIsIgnored() {
    let outcome = parse(Self.document("utf-16", title: "plain"))
    #expect(outcome.channel?.title == "plain")
    #expect(outcome.result == FeedParseResult(wellformed: true, encoding: "utf-8", failure: nil))
  }

  @Test func unknownEncodingIsNotWellFormed() {
    let outcome = parse(Self.document("no-such-charset", title: "t"))
    #expect(outcome.channel?.title == "t")
    #expect(outcome.result.wellformed == false)
    #expect(outcome.result.failure == nil)
  }

  @Test func invalidUTF8IsNotWellFormed() {
    var bytes = Array("<rss version=\"2.0\"><channel><title>Caf_</title></channel></rss>".utf8)
    bytes[bytes.firstIndex(of: UInt8(ascii: "_"))!] = 0xE9
    #expect(parse(bytes).result.wellformed == false)
  }
}
