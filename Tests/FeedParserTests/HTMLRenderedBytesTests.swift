import Testing

@testable import FeedParser

/// The text renderer's own output memory: it grows past the room made for the input when the
/// text comes out longer (references longer than they are written), and is reused.
@Suite struct HTMLRenderedBytesTests {
  @Test func growsAndIsReused() {
    var renderer = HTMLTextRenderer()
    // `&nGt;` is five bytes written and six rendered (U+226B U+20D2).
    for count in [1, 100, 1_000, 3] {
      let input = Array(String(repeating: "&nGt;", count: count).utf8)
      let rendered = input.withUnsafeBufferPointer { renderer.render($0) }
      #expect(rendered == Array(String(repeating: "\u{226B}\u{20D2}", count: count).utf8))
      let lent = input.withUnsafeBufferPointer { renderer.withRendered($0) { Array($0) } }
      #expect(lent == rendered)
    }
  }

  @Test func bytesAppendedAndLent() {
    let bytes = HTMLRenderedBytes()
    bytes.reset(expecting: 4)
    #expect(bytes.isEmpty)
    let run = Array("a run of prose longer than the room".utf8)
    for _ in 0..<20 {
      run.withUnsafeBufferPointer { bytes.append($0) }
      bytes.append(0x0A)
    }
    let expected = Array(repeating: run + [0x0A], count: 20).flatMap { $0 }
    #expect(bytes.array() == expected)
    #expect(bytes.withBytes { Array($0) } == expected)
    bytes.reset(expecting: 0)
    #expect(bytes.isEmpty && bytes.array().isEmpty)
  }
}
