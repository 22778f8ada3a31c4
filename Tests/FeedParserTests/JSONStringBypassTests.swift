import Testing

@testable import FeedParser

/// `JSONStringBypass` reads strings before yajl does: whatever the chunking, the handler must
/// get the same events, strings and stop as when yajl reads every string itself in one piece.
@Suite struct JSONStringBypassTests {
  /// Documents with every kind of string: plain, UTF-8, each escape, `\u` scalars (controls,
  /// a zero, surrogate pairs and lone halves, which yajl keeps for itself), keys with escapes,
  /// empty strings, long ones, and the lexical errors yajl must still report with its words.
  static let documents: [String] = [
    #"{"version":"1.1","title":"plain","items":[{"id":"1","content_html":"<p>a \"quoted\" word</p>\n<p>日本語 été</p>"}]}"#,
    #"{"a":"\"\\\/\b\f\n\r\t","b":"\u0041\u00e9\u20ac\uFFFF\u0000x","c":"\u001b[2J\u0007\u0009"}"#,
    #"{"k\u0065y":"v","":"","e":"","long":"0123456789abcdef0123456789abcdef\\0123456789abcdef\"0123456789"}"#,
    #"{"pair":"\uD83D\uDE00 smile","lone":"\uD800x","low":"\uDC00yz","tail":"after"}"#,
    #"["a","bb","ccc","dddd",1,true,null,{"x":["y","z\n"]},"last string here"]"#,
    #"{"bad":"\x","after":"never read"}"#,
    #"{"bad":"\u12G4","after":"never read"}"#,
    "{\"raw\":\"control \u{01} inside\",\"after\":\"never read\"}",
    "{\"tab\":\"a\tb\",\"after\":\"read? no: a raw tab is an error\"}",
    #"{"open":"this string never ends"#,
    #"{"escape at the end":"abc\"#,
    #"{"a":"b" "c":"d"}"#,
    #"{"a":1"b"}"#,
    #"{"a":tru"e"}"#,
    #"{"a":"b"} "junk""#,
    #"{"a":"\u00"#,
  ]

  @Test(arguments: documents)
  func theSameEventsForEveryChunking(_ text: String) {
    let bytes = Array(text.utf8)
    let expected = Self.events(bytes, chunkSizes: [bytes.count], bypassesStrings: false)
    #expect(Self.events(bytes, chunkSizes: [bytes.count]) == expected)
    #expect(Self.events(bytes, chunkSizes: Array(repeating: 1, count: bytes.count)) == expected)
    for cut in 1..<bytes.count {
      #expect(
        Self.events(bytes, chunkSizes: [cut, bytes.count - cut]) == expected, "cut at \(cut)")
    }
  }

  /// A string the bypass reads is handed over where it lies when it holds no escape, and
  /// flagged as free of controls unless an escape stands for one.
  @Test func controlsAreFlaggedOnlyWhereAnEscapeMakesThem() {
    let bytes = Array(#"{"a":"plain","b":"tab\tnewline\n","c":"bell\u0007","d":"\f"}"#.utf8)
    let recorder = Recorder()
    let parser = YAJLPushParser(handler: recorder)
    bytes.withUnsafeBytes { parser?.push($0) }
    parser?.finish()
    #expect(
      recorder.flags == [
        "plain": false, "tab\tnewline\n": false, "bell\u{07}": true, "\u{0C}": true,
      ])
  }

  private static func events(
    _ bytes: [UInt8], chunkSizes: [Int], bypassesStrings: Bool = true
  ) -> [String] {
    let recorder = Recorder()
    guard let parser = YAJLPushParser(handler: recorder, bypassesStrings: bypassesStrings) else {
      return ["no parser"]
    }
    var offset = 0
    for size in chunkSizes where offset < bytes.count {
      let end = min(bytes.count, offset + size)
      bytes[offset..<end].withUnsafeBytes { parser.push($0) }
      offset = end
    }
    parser.finish()
    return recorder.events + ["stop: \(String(describing: parser.stop))"]
  }

  /// Every event as text, strings as their bytes.
  private final class Recorder: JSONEventHandler {
    var events: [String] = []
    var flags: [String: Bool] = [:]

    func jsonNull() -> Bool { record("null") }
    func jsonBool(_ value: Bool) -> Bool { record("bool \(value)") }
    func jsonNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool { record("number \(Array(text))") }
    func jsonString(_ bytes: UnsafeBufferPointer<UInt8>, mayHoldControls: Bool) -> Bool {
      if !mayHoldControls {
        #expect(ControlCharacters.firstControl(bytes) == nil)
      }
      flags[String(decoding: bytes, as: UTF8.self)] = mayHoldControls
      return record("string \(Array(bytes))")
    }
    func jsonStartObject() -> Bool { record("{") }
    func jsonKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { record("key \(Array(bytes))") }
    func jsonEndObject() -> Bool { record("}") }
    func jsonStartArray() -> Bool { record("[") }
    func jsonEndArray() -> Bool { record("]") }

    private func record(_ event: String) -> Bool {
      events.append(event)
      return true
    }
  }
}
