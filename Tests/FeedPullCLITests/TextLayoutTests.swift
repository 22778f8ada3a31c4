import FeedPull
import Testing

/// The text format's lines as tables: for each width, what a title and link become. Every line
/// fits the width, but a link longer than a line, which is never cut.
@Suite struct TextLayoutTests {
  static let link = "https://example.com/2025/11/a-post/"  // 35 columns
  static let time = "2025-11-01 18:30"

  struct Case: Sendable, CustomStringConvertible {
    var width: Int
    var title: String
    var link: String?
    var expected: [String]
    var description: String { "\(width): \(title)" }
  }

  static let cases: [Case] = [
    // Everything fits on one line.
    Case(
      width: 80, title: "Short title", link: link,
      expected: ["  \(time)  Short title  \(link)"]),
    // At 80 the title must be cut below 24 columns to keep the link: the link moves under it.
    Case(
      width: 80, title: "A title of exactly forty columns, padded", link: link,
      expected: [
        "  \(time)  A title of exactly forty columns, padded", "                    \(link)",
      ]),
    // At 120 it fits beside.
    Case(
      width: 120, title: "A title of exactly forty columns, padded", link: link,
      expected: ["  \(time)  A title of exactly forty columns, padded  \(link)"]),
    // At 40, the title is cut to the 20 columns after the time (a space before the cut goes),
    // and the link cannot stand under it: it starts at column 4 and runs past the width, whole.
    Case(
      width: 40, title: "A title of exactly forty columns, padded", link: link,
      expected: ["  \(time)  A title of exactly…", "    \(link)"]),
    // No link: only the title, cut to the width.
    Case(
      width: 40, title: "A title of exactly forty columns, padded", link: nil,
      expected: ["  \(time)  A title of exactly…"]),
    // CJK: two columns a character; the cut keeps within the width.
    Case(
      width: 40, title: "日本語のタイトルがとても長い場合", link: nil,
      expected: ["  \(time)  日本語のタイトルが…"]),
    Case(
      width: 120, title: "日本語のタイトル", link: link,
      expected: ["  \(time)  日本語のタイトル  \(link)"]),
    // Emoji: a ZWJ family and a flag are one character of two columns each, never split.
    Case(
      width: 40, title: "Release 👩‍👩‍👧‍👦🇯🇵 notes and more words", link: nil,
      expected: ["  \(time)  Release 👩‍👩‍👧‍👦🇯🇵 notes…"]),
    // Right-to-left text is cut by its characters, like any other.
    Case(
      width: 40, title: "שלום עולם, זו כותרת ארוכה מאוד", link: nil,
      expected: ["  \(time)  שלום עולם, זו כותרת…"]),
    Case(
      width: 40, title: "مرحبا بالعالم هذا عنوان طويل جدا", link: nil,
      expected: ["  \(time)  مرحبا بالعالم هذا ع…"]),
  ]

  @Test(arguments: cases)
  func itemLines(_ testCase: Case) {
    let lines = TextLayout.item(
      time: Self.time, title: testCase.title, link: testCase.link, width: testCase.width)
    #expect(lines == testCase.expected)
    for line in lines where !line.hasSuffix(testCase.link ?? "\u{0}") {
      #expect(DisplayWidth.columns(of: line) <= testCase.width, "\(line)")
    }
  }

  @Test(arguments: [40, 80, 120])
  func aLongLinkIsNeverCut(_ width: Int) {
    let link = "https://example.com/" + String(repeating: "very-long-path/", count: 10)
    let lines = TextLayout.item(time: nil, title: "Title", link: link, width: width)
    #expect(lines.count == 2)
    #expect(lines[1].hasSuffix(link))
    #expect(lines[0] == "  " + String(repeating: " ", count: 16) + "  Title")
  }

  @Test func aDurationIsNeverCut() {
    let lines = TextLayout.item(
      time: Self.time, title: String(repeating: "Long title ", count: 10), duration: "1:02:03",
      link: nil, width: 60)
    #expect(lines == ["  \(Self.time)  Long title Long title Long tit…  1:02:03"])
    #expect(DisplayWidth.columns(of: lines[0]) <= 60)
  }

  @Test func titlesAreOneLineOfPlainCharacters() {
    let lines = TextLayout.item(
      time: Self.time, title: "Evil\u{1B}]52;c;aGk=\u{07}\ttitle\n with \u{202E}override\u{202C} ",
      link: nil, width: 80)
    #expect(lines == ["  \(Self.time)  Evil]52;c;aGk= title with override"])
  }

  @Test(arguments: [40, 80, 120])
  func headingsFitTheWidth(_ width: Int) {
    let source = "https://example.com/feed.xml"
    let short = TextLayout.heading(title: "News", source: source, width: width)
    #expect(short == ["News  (\(source))"])
    let long = TextLayout.heading(
      title: String(repeating: "Very long feed title ", count: 6), source: source, width: width)
    for line in long { #expect(DisplayWidth.columns(of: line) <= width, "\(line)") }
    #expect(long.last?.hasSuffix("(\(source))") == true)
    #expect(TextLayout.heading(title: nil, source: source, width: width) == [source])
  }

  @Test func widths() {
    #expect(DisplayWidth.columns(of: "abc") == 3)
    #expect(DisplayWidth.columns(of: "日本") == 4)
    #expect(DisplayWidth.columns(of: "한국어") == 6)
    #expect(DisplayWidth.columns(of: "é") == 1)  // e + combining acute
    #expect(DisplayWidth.columns(of: "👍🏽") == 2)
    #expect(DisplayWidth.columns(of: "❤️") == 2)  // a text heart with the emoji selector
    #expect(DisplayWidth.columns(of: "🇫🇷") == 2)
    #expect(DisplayWidth.columns(of: "a\u{200B}b") == 2)
    #expect(DisplayWidth.columns(of: "ＡＢ") == 4)
    #expect(DisplayWidth.cut("日本語", to: 4) == "日…")
    #expect(DisplayWidth.cut("日本語", to: 6) == "日本語")
  }
}
