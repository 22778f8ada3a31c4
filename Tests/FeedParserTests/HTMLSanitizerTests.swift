import TestSupport
import Testing

@testable import FeedParser

/// The sanitizer and the text renderer on their own: HTML in, HTML or text out. Each case is a
/// row: what goes in, what must come out (nil: the input is safe as it is and comes back
/// unchanged, without a copy).
@Suite struct HTMLSanitizerTests {
  static let base = "http://example.com/blog/post/"

  static let safeCases: [(String, String?)] = [
    // Already safe: handed back as it is.
    (
      #"<p>Hello <a href="https://e.example/x">link</a> &nbsp;&amp;&#233;</p><br><img src="http://e.example/i.png" alt="i"/>"#,
      nil
    ),
    // Event handlers and unknown attributes go.
    (#"<p onclick="steal()" class="c">a</p>"#, #"<p class="c">a</p>"#),
    // script, style and applet go with their content; other unknown tags keep theirs.
    (#"x<script type="text/javascript">document.write("<p>no</p>")</script>y"#, "xy"),
    ("<style>p { color: red }</style>t", "t"),
    ("<SCRIPT>a</SCRIPT >b", "b"),
    ("<applet code=x><p>inside</p><applet>nested</applet>still</applet>after", "after"),
    (#"<iframe src="http://evil.example/">fallback <b>bold</b></iframe>"#, "fallback <b>bold</b>"),
    (#"<object data="x.swf"><embed src="x.swf">alt</object>"#, "alt"),
    ("<blink>b</blink><marquee>m</marquee>", "bm"),
    // A script that never ends takes the rest with it.
    ("before<script>alert(1)", "before"),
    // Unsafe schemes, however they are spelled, leave the attribute empty.
    (#"<a href="javascript:alert(1)">x</a>"#, #"<a href="">x</a>"#),
    (#"<a href=" JaVaScRiPt:alert(1)">x</a>"#, #"<a href="">x</a>"#),
    (#"<a href="java&#115;cript:alert(1)">x</a>"#, #"<a href="">x</a>"#),
    (#"<a href="java&#9;script:alert(1)">x</a>"#, #"<a href="">x</a>"#),
    (#"<img src="vbscript:msgbox(1)">"#, #"<img src="" />"#),
    (#"<a href="data:text/html,<script>alert(1)</script>">x</a>"#, #"<a href="">x</a>"#),
    (#"<a href="mailto:a@example.com">m</a>"#, nil),
    // Relative URIs resolved against the base, where feedparser resolves them.
    (
      #"<a href="../other/">o</a><img src="/i.png">"#,
      #"<a href="http://example.com/blog/other/">o</a><img src="http://example.com/i.png" />"#
    ),
    (
      #"<blockquote cite="q.html">q</blockquote>"#,
      #"<blockquote cite="http://example.com/blog/post/q.html">q</blockquote>"#
    ),
    (##"<a href="#top">t</a>"##, ##"<a href="http://example.com/blog/post/#top">t</a>"##),
    // The first of two attributes of one name counts, as in a browser.
    (
      #"<a href="ok.html" HREF="javascript:x">x</a>"#,
      #"<a href="http://example.com/blog/post/ok.html">x</a>"#
    ),
    // style keeps only safe CSS.
    (
      #"<span style="color: red; background: url(javascript:x); position: absolute">s</span>"#,
      #"<span style="color: red;">s</span>"#
    ),
    (#"<span style="width: expression(alert(1))">s</span>"#, "<span>s</span>"),
    (
      #"<span style="margin: 0 auto; padding: 2px 4px">s</span>"#,
      #"<span style="margin: 0 auto; padding: 2px 4px;">s</span>"#
    ),
    // Property names in any letter case (looked up on their bytes), families by their prefix.
    (
      #"<span style="COLOR: Red; Border-Top: 1px solid; Margin: 0 bogus; TEXT-ALIGN:center; fill: red">s</span>"#,
      #"<span style="COLOR: Red; Border-Top: 1px solid; TEXT-ALIGN: center;">s</span>"#
    ),
    // Comments, declarations and processing instructions go; a `<` that starts nothing is text.
    ("a<!-- hidden -->b<!DOCTYPE html>c<?php echo 1 ?>d", "abcd"),
    ("sa<!-- -- x >fe", "safe"),
    ("safe<!-- never closed", "safe"),
    ("a < b && c > d", "a &lt; b &amp;&amp; c &gt; d"),
    ("<![CDATA[x]]>", "&lt;![CDATA[x]]&gt;"),
    ("<!DOCTYPE ~", "&lt;!DOCTYPE ~"),
    ("AT&T; &bogus; &#0; &#1;x &#150;", "AT&amp;T; &amp;bogus; \u{FFFD} x &#150;"),
    // The common names known from one word, and what only looks like them.
    (
      "&lt;b&gt;&amp;&ampx;&amp &quot; x&hellip;",
      "&lt;b&gt;&amp;&amp;ampx;&amp;amp &quot; x&hellip;"
    ),
    // Written the usual way: lower case, double quotes, values escaped, void without end.
    (#"<P CLASS=note Title='a "b"'>x</P>"#, #"<p class="note" title="a &quot;b&quot;">x</p>"#),
    (
      #"<img src="http://e.example/c.jpg" alt="cat<br />dog">"#,
      #"<img src="http://e.example/c.jpg" alt="cat&lt;br /&gt;dog" />"#
    ),
    (
      #"<a href=http://example.com/">example</a>"#,
      #"<a href="http://example.com/&quot;">example</a>"#
    ),
    ("<input checked>", #"<input checked="checked" />"#),
    ("a<br></br>b<p/>c", "a<br>b<p></p>c"),
    // A tag that a stray `<` ends gets its `>` (a fuzzer find: it stayed `<br/`).
    ("a<br/</updated>b", "a<br />b"),
    // A tag that never ends is text.
    (#"text <a href="x"#, #"text &lt;a href="x"#),
    // Inline SVG and MathML: their own vocabularies, their namespaces declared.
    (
      #"<svg viewbox="0 0 1 1" onload="x()"><circle r="1" fill="red"/><foo>t</foo></svg>"#,
      #"<svg viewBox="0 0 1 1" xmlns="http://www.w3.org/2000/svg"><circle r="1" fill="red"/>t</svg>"#
    ),
    (
      "<math><mi>x</mi><script>y</script></math>",
      #"<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi></math>"#
    ),
    (
      #"<svg><a xlink:href="javascript:x()">l</a></svg>"#,
      #"<svg xmlns="http://www.w3.org/2000/svg"><a xlink:href="" xmlns:xlink="http://www.w3.org/1999/xlink">l</a></svg>"#
    ),
  ]

  @Test(arguments: safeCases.indices)
  func sanitizes(_ index: Int) {
    let (input, expected) = Self.safeCases[index]
    var sanitizer = HTMLSanitizer()
    let bytes = Array(input.utf8)
    let output = bytes.withUnsafeBufferPointer {
      sanitizer.sanitize($0, base: Self.base, flavour: .html)
    }
    #expect(output.map { String(decoding: $0, as: UTF8.self) } == expected, "\(input)")
    // Sanitized output is safe as it is: a second pass changes nothing.
    if let output {
      let again = output.withUnsafeBufferPointer {
        sanitizer.sanitize($0, base: Self.base, flavour: .html)
      }
      #expect(again == nil, "not stable: \(String(decoding: output, as: UTF8.self))")
    }
  }

  /// Text of every length up to 48 with a `&` at every place: the scans that read eight and
  /// sixteen bytes at a time stop at the text's end (a text of 22 bytes once read one past it).
  @Test func everyLengthAndPlace() {
    var sanitizer = HTMLSanitizer()
    for length in 1...48 {
      for place in 0..<length {
        var bytes = Array(repeating: UInt8(ascii: "x"), count: length)
        bytes[place] = UInt8(ascii: "&")
        let output = bytes.withUnsafeBufferPointer {
          sanitizer.sanitize($0, base: nil, flavour: .html)
        }
        var expected = String(repeating: "x", count: length)
        expected.replaceSubrange(
          expected.index(
            expected.startIndex, offsetBy: place)...expected.index(
              expected.startIndex, offsetBy: place), with: "&amp;")
        #expect(output.map { String(decoding: $0, as: UTF8.self) } == expected)
      }
    }
  }

  /// XHTML (Atom `type="xhtml"`): `<p/>` is an empty element, SVG needs its namespace.
  @Test func xhtmlFlavour() {
    var sanitizer = HTMLSanitizer()
    func run(_ input: String) -> String? {
      Array(input.utf8).withUnsafeBufferPointer {
        sanitizer.sanitize($0, base: nil, flavour: .xhtml)
      }.map { String(decoding: $0, as: UTF8.self) }
    }
    #expect(run(#"<p class="a"/>x"#) == #"<p class="a"></p>x"#)
    #expect(run("<svg><circle/></svg>") == "")
    #expect(run(#"<svg xmlns="http://www.w3.org/2000/svg"><circle/></svg>"#) == nil)
    #expect(run(#"<a href="rel">x</a>"#) == nil, "no base: a relative URI stays")
  }

  static let textCases: [(String, String)] = [
    ("<p>Hello <b>world</b></p><p>Second</p>", "Hello world\n\nSecond"),
    ("a<br>b<br><br><br><br>c", "a\nb\n\nc"),
    ("<ul><li>one</li><li>two</li></ul>after", "one\ntwo\n\nafter"),
    ("<pre>  x\n\n\n  y</pre>z", "  x\n\n  y\n\nz"),
    ("<script>x</script><style>y</style>t &amp; u&nbsp;v &#8230; &lt;b&gt;", "t & u\u{A0}v … <b>"),
    ("&lt;b&gt;&amp;&ampx;&amp &quot; x&hellip;", "<b>&&ampx;&amp \" x…"),
    ("   spaced \n\t  out   ", "spaced out"),
    ("<head><title>T</title></head>body<template>no</template>", "body"),
    ("<div>one</div><div>two</div>", "one\ntwo"),
    ("<h1>Title</h1>text<!-- c -->more", "Title\n\ntextmore"),
    ("x<applet><p>gone</p></applet>y", "xy"),
  ]

  @Test(arguments: textCases.indices)
  func rendersText(_ index: Int) {
    let (input, expected) = Self.textCases[index]
    #expect(HTMLPlainText.render(input) == expected, "\(input)")
  }

  /// Markup built to make a scanner go back over the text from every tag: linear time.
  @Test func brokenMarkupTakesLinearTime() {
    for piece in [#"<a b=""#, "<!-- -- ", "<![", "<a ", "<?x", "</x ", "&#", "<a b='"] {
      let input = Array(String(repeating: piece + "t", count: 50_000).utf8)
      var sanitizer = HTMLSanitizer()
      var renderer = HTMLTextRenderer()
      let started = threadCPUTime()
      _ = input.withUnsafeBufferPointer { sanitizer.sanitize($0, base: nil, flavour: .html) }
      _ = input.withUnsafeBufferPointer { renderer.render($0) }
      let elapsed = threadCPUTime() - started
      #expect(elapsed < .seconds(5), "\(piece): \(elapsed)")
    }
  }
}
