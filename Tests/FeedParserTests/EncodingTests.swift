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
