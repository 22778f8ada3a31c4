import Testing

@testable import FeedParser

/// The sanitizer's text runs (`HTMLSanitizer.passText`: text up to the next markup found in
/// one scan for `<`, `&` and `>`) against text read through the tokenizer: the same output for
/// every kind of text, at every length around the scan's thirty-two and sixteen bytes.
@Suite struct HTMLTextRunTests {
  /// Texts around markup: references kept, replaced and literal, `<` that starts no markup,
  /// `>`, text at the input's ends, inside SVG, MathML and `applet`, after broken markup.
  static let texts: [String] = [
    "plain text",
    "Tom &amp; Jerry&nbsp;&hellip; &eacute;t&eacute; &Eacute; &bogus; AT&T; &foo",
    "&#233; &#xE9; &#0; &#150; &#x110000; &#65 &#; &#x; &",
    "1 < 2 > 0, a<3, <, <<, < p, <3>, <=, <-",
    "&amp<b>x</b>&lt<i>y</i>&#38<u>z</u>&am",
    "x</",
    "x<",
    "x&",
    "x>",
    "日本語のテキスト。&mdash; and more &laquo;quoted&raquo;",
    "<svg><text>a < b &amp; c</text></svg> after",
    "<math><mi>x</mi> &lt; y</math> after",
    "<applet>hidden &amp; < text</applet> shown & <text>",
    "<a b=\"never closed & < > ",
    "<!-- comment > & < --> after & <!doctype html> x <?pi & ?> y",
    "<script>if (a < b && c > d) {}</script> & <style>p > a {}</style> text",
    "<p>one</p>\n<p>two &amp; three</p>\n\n<blockquote>four</blockquote>",
  ]

  @Test(arguments: texts.indices)
  func sameAsTheTokenizer(_ index: Int) {
    let text = Self.texts[index]
    var inputs = [text, "<p>" + text + "</p>", text + text]
    // Every length of filler before and after, across the scan's looks.
    for count in [1, 7, 15, 16, 17, 31, 32, 33, 47, 64, 100] {
      let filler = String(repeating: "w", count: count)
      inputs.append(filler + text)
      inputs.append(text + filler)
      inputs.append("<p>" + filler + "</p>" + text + "<p>" + filler + "&amp;</p>")
    }
    for input in inputs {
      for flavour in [HTMLSanitizer.Flavour.html, .xhtml] {
        var runs = HTMLSanitizer()
        var tokens = HTMLSanitizer()
        tokens.usesTextRuns = false
        let fast = runs.sanitize(input, base: nil, flavour: flavour)
        let slow = tokens.sanitize(input, base: nil, flavour: flavour)
        #expect(fast == slow, "\(input) \(flavour)")
      }
    }
  }

  /// Each special byte alone at every offset of a text long enough for every look.
  @Test func eachSpecialAtEveryOffset() {
    for special in ["<", ">", "&", "&amp;", "&#0;", "<b>", "</b>", "< "] {
      for offset in 0..<70 {
        let input =
          String(repeating: "a", count: offset) + special
          + String(repeating: "b", count: 70 - offset)
        var runs = HTMLSanitizer()
        var tokens = HTMLSanitizer()
        tokens.usesTextRuns = false
        let fast = runs.sanitize(input, base: nil, flavour: .html)
        let slow = tokens.sanitize(input, base: nil, flavour: .html)
        #expect(fast == slow, "\(input)")
      }
    }
  }
}
