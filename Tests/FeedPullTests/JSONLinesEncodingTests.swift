import FeedParser
import Foundation
import Testing

@testable import FeedPull

@Suite struct JSONLinesEncodingTests {
  @Test func leavesOutEmptyFieldsAndEscapesText() {
    var item = FeedItem(index: 3)
    item.title = "A \"quoted\" \\ title\n\twith\u{1} control"
    item.titleType = "text/plain"
    item.summary = ""
    item.categories = ["", "swift"]
    item.published = .instant(1_318_988_115)
    item.updated = .raw("yesterday")
    item.enclosures = [FeedEnclosure(url: "http://e/a.mp3", length: 42)]
    let line = JSONLinesEncoding.line(.item(ItemRecord(source: "s.xml", item: item)))
    #expect(
      line
        == #"{"type":"item","source":"s.xml","index":3,"title":"A \"quoted\" \\ title\n\twith control","title_type":"text/plain","published":"2011-10-19T01:35:15Z","updated_raw":"yesterday","categories":["swift"],"enclosures":[{"url":"http://e/a.mp3","length":42}]}"#
    )
  }

  /// Long text is escaped in blocks of 4,096 bytes, eight bytes at a time: escapes at every
  /// offset around the block and word boundaries must come out the same as one at a time.
  @Test func escapesLongTextAcrossBlockBoundaries() throws {
    let specials: [Character] = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "日"]
    var texts = [16, 32, 4096, 4112, 8192].map { String(repeating: "a", count: $0) }
    texts += ["\"" + String(repeating: "a", count: 16), "é" + String(repeating: "a", count: 32)]
    for length in [7, 8, 9, 16, 32, 48, 4095, 4096, 4097, 4112, 8192, 8200] {
      var text = ""
      for index in 0..<length {
        let special =
          (index % 13 == 0 && index < length / 2) || (4088...4104).contains(index)
        text.append(special ? specials[index % specials.count] : "a")
      }
      texts.append(text)
    }
    for text in texts {
      var item = FeedItem(index: 0)
      item.content = text
      let line = JSONLinesEncoding.line(.item(ItemRecord(source: "s", item: item)))
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["content"] as? String == Self.withoutControls(text))
    }
  }

  /// A string's last one to seven bytes are read as one word (two overlapping loads): a byte to
  /// escape at every position of every length up to 24, in a title (a `String`) and in content
  /// (UTF-8 bytes), must come out as written one byte at a time.
  @Test func escapesShortTextAtEveryPosition() throws {
    let specials: [Character] = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é"]
    var texts: [String] = []
    for length in 1...24 {
      texts.append(String(repeating: "b", count: length))
      for position in 0..<length {
        for special in specials {
          var characters = Array(repeating: Character("b"), count: length)
          characters[position] = special
          texts.append(String(characters))
        }
      }
    }
    for text in texts {
      var item = FeedItem(index: 0)
      item.title = text
      item.content = text
      let line = JSONLinesEncoding.line(.item(ItemRecord(source: "s", item: item)))
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["title"] as? String == Self.withoutControls(text))
      #expect(object["content"] as? String == Self.withoutControls(text))
    }
  }

  /// C0 controls other than tab, LF and CR never reach a record, whatever the format.
  static func withoutControls(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.filter { $0.value >= 0x20 || [0x09, 0x0A, 0x0D].contains($0.value) }))
  }

  /// A number with a fraction is written as Swift's shortest text that reads back as it
  /// (`description`), whether through the short path for tenths and hundredths or not.
  @Test func fractionsAreWrittenAsDescriptionWrites() {
    var values: [Double] = [
      0.01, 0.05, 0.1, 0.5, 1.5, 45.25, 73.05, 99.99, 0.3, 2.675, 1e-5, 0.001, 0.015, 1.005,
      123_456_789.5, 99_999_999_999.5, 1e11 + 0.5, 1e12 + 0.25, 1.0 / 3, 0.1 + 0.2, 4.35, 8.2,
    ]
    for hundredths in 1..<5_000 where hundredths % 100 != 0 {
      values.append(Double(hundredths) / 100)
      values.append(Double(hundredths) * 0.01)
      values.append(Double(hundredths) / 10)
      values.append(Double(hundredths) / 1000)
      values.append(Double(hundredths) / 100 + 1_000_000)
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      values.append(Double.random(in: -1e6...1e6, using: &generator))
      values.append((Double.random(in: -1e9...1e9, using: &generator) * 100).rounded() / 100)
    }
    for value in values + values.map({ -$0 }) where value != value.rounded() {
      var buffer = JSONLineBuffer()
      buffer.appendNumber(value)
      #expect(String(decoding: buffer.bytes.array, as: UTF8.self) == value.description)
    }
  }

  @Test func controlCharactersAreRemovedAndTheRestEscaped() {
    var end = EndRecord(source: "a\u{1B}[2Jb\u{0}\u{7F}\u{9B}\r")
    end.bytes = 0
    let line = JSONLinesEncoding.line(.end(end))
    #expect(line.contains(#""source":"a[2Jb\#u{7F}\#u{9B}\r""#), "\(line)")
  }

  @Test func endRecordCarriesErrorAndFlagsOnlyWhenSet() {
    var end = EndRecord(source: "http://x/")
    end.status = 500
    end.bytes = 0
    end.error = PullError(kind: .http, message: "HTTP 500", status: 500)
    let line = JSONLinesEncoding.line(.end(end))
    #expect(
      line
        == #"{"type":"end","source":"http://x/","ok":false,"status":500,"items":0,"bytes":0,"elapsed_ms":0,"error":{"kind":"http","message":"HTTP 500","status":500}}"#
    )
    var ok = EndRecord(source: "f")
    ok.notModified = true
    #expect(
      JSONLinesEncoding.line(.end(ok)).contains(
        #""ok":true,"items":0,"bytes":0,"not_modified":true"#))
  }

  @Test func writesNonASCIIAsUTF8() {
    var channel = FeedChannel(version: .rss10)
    channel.title = "はてなブログ — café"
    let line = JSONLinesEncoding.line(.feed(FeedRecord(source: "-", url: nil, channel: channel)))
    #expect(line == #"{"type":"feed","source":"-","version":"rss10","title":"はてなブログ — café"}"#)
  }
}
