import Foundation
import TestSupport
import Testing

@testable import FeedPull

/// What reaches a terminal: no control, DEL, C1 or bidirectional override, from any text.
@Suite struct TerminalTextTests {
  @Test func controlsAndOverridesAreRemoved() {
    let hostile =
      "a\u{1B}[2Jb\u{1B}]0;owned\u{7}c\u{1B}]52;c;aGk=\u{7}\rd\u{8}\u{7F}e\u{9B}31mf"
      + "\u{202E}g\u{2066}h\u{2069}i\u{85}\u{0}"
    #expect(TerminalText.safe(hostile) == "a[2Jb]0;ownedc]52;c;aGk=de31mfghi")
  }

  @Test func tabsLineFeedsAndEveryOtherCharacterStay() {
    let text = "Title\twith tab\nand line, é, 日本, 😀, \u{200F}, \u{2028}, \u{A0}"
    #expect(TerminalText.safe(text) == text)
  }

  /// Each removed range at its edges, against the scalar rule, one character at a time.
  @Test func theByteScanAgreesWithTheScalarRule() {
    let edges: [UInt32] = [
      0x00, 0x08, 0x09, 0x0A, 0x0B, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0x2029, 0x202A,
      0x202E, 0x202F, 0x2065, 0x2066, 0x2069, 0x206A, 0x1F600,
    ]
    for value in edges {
      let scalar = Unicode.Scalar(value)!
      let text = "x" + String(Character(scalar)) + "y"
      let expected = TerminalText.isRemoved(scalar) ? "xy" : text
      #expect(TerminalText.safe(text) == expected, "U+\(String(value, radix: 16))")
    }
  }

  @Test func aTitleTypedHTMLIsShownAsText() {
    #expect(
      TerminalText.plain("A <b>bold</b> &amp; \u{1B}[2Jtitle", type: "text/html")
        == "A bold & [2Jtitle")
    #expect(TerminalText.plain("A <b>x</b>", type: "text/plain") == "A <b>x</b>")
  }

  /// A source's name and a server's message reach stderr as text only.
  @Test func stderrLinesCarryNoControl() throws {
    let source = "/nonexistent/\u{1B}[2J\u{1B}]0;title\u{7}\u{9B}feed\u{202E}.xml"
    let result = try FeedpullProcess.run(["-f", "jsonl", source])
    #expect(result.status == 1)
    #expect(result.stderr.contains("/nonexistent/[2J]0;titlefeed.xml"), "\(result.stderr)")
    #expect(!result.stderr.unicodeScalars.contains { TerminalText.isRemoved($0) && $0 != "\n" })
  }
}
