import CLibXML2
import Glibc
import TestSupport
import Testing

@testable import FeedParser

/// Broken documents the filter exists for: after it, libxml2 reads each without any error,
/// with its recovery mode off, so no entity reference is lost.
private let brokenDocuments: [String] = [
  "<rss><channel><title>AT&T &amp; friends</title><item><title>caf&eacute;&nbsp;&hellip; &copy;</title></item></channel></rss>",
  "<rss><item><link>http://example.com/?a=1&b=2</link><description>x\u{1}y &#X41; &unknown; &</description></item></rss>",
  "<!DOCTYPE rss [<!ENTITY site \"Example\">]><rss><title>&site; &nbsp;&amp;</title></rss>",
  "<rss><title>1 < 2 &amp; x<5 &eacute;</title><link>/a?b=1&c=2</link></rss>",
  "<feed><content type=\"html\"><![CDATA[<p>a & b &nbsp;</p>]]> &mdash; &</content></feed>",
]

@Test("makes broken documents well-formed for libxml2", arguments: brokenDocuments)
func makesDocumentWellFormed(input: String) {
  let before = Array(input.utf8)
  #expect(!isWellFormedForLibXML2(before))
  let result = runRepairFilter(before)
  #expect(result.repaired)
  #expect(
    isWellFormedForLibXML2(result.output), "\(String(decoding: result.output, as: UTF8.self))")
}

/// libxml2's own verdict, with recovery, network and entity substitution off.
private func isWellFormedForLibXML2(_ bytes: [UInt8]) -> Bool {
  xmlSetStructuredErrorFunc(nil) { _, _ in }
  let options = Int32(
    XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
  let document = bytes.withUnsafeBufferPointer { buffer in
    buffer.withMemoryRebound(to: CChar.self) {
      xmlReadMemory($0.baseAddress, Int32($0.count), "test.xml", "UTF-8", options)
    }
  }
  guard let document else { return false }
  xmlFreeDoc(document)
  return true
}

/// The sample feed with every fault the filter handles comes out well-formed for libxml2.
@Test func repairsBrokenEntitiesSampleFeed() throws {
  let path = RepositoryPaths.feeds.appendingPathComponent("broken-entities.xml").path
  guard let file = fopen(path, "rb") else {
    Issue.record("cannot open \(path)")
    return
  }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count == 0 { break }
    bytes += buffer[0..<count]
  }
  #expect(!isWellFormedForLibXML2(bytes))
  let result = runRepairFilter(bytes)
  #expect(result.repaired)
  #expect(isWellFormedForLibXML2(result.output))
  let text = String(decoding: result.output, as: UTF8.self)
  #expect(text.contains("Smith &amp; Daughters"))
  #expect(text.contains("caf&#233; corner"))
  #expect(text.contains("&amp;unknownentity;"))
  #expect(!text.contains("\u{B}"))
}
