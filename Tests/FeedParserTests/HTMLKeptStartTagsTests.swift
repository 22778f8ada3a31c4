import Testing

@testable import FeedParser

/// The sanitizer's shortcut for start tags kept as written (`HTMLKeptStartTags`) against the
/// full way (tokenizer, look-ups, `keepAttributes`): the same output for tags it takes and for
/// tags close to them that it must leave to the full way.
@Suite struct HTMLKeptStartTagsTests {
  static let base = "http://example.com/blog/post/"

  /// Tags the shortcut takes, and near misses that it must hand over.
  static let tags: [String] = [
    #"<img src="https://cdn.example.com/i/1.jpg" alt="An image" width="640" height="480"/>"#,
    #"<img src="https://cdn.example.com/i/1.jpg" alt="An image" width="640" height="480" />"#,
    #"<img src="https://cdn.example.com/i/1.jpg" alt="x">"#,
    #"<a href="https://e.example/posts/1#more">l</a>"#,
    #"<a href="http://e.example/">l</a>"#,
    #"<a  href="https://e.example/"   title="t" >l</a>"#,
    "<a\thref=\"https://e.example/\"\ntitle=\"t\">l</a>",
    #"<p class="c" id="i">t</p>"#,
    #"<p >t</p>"#,
    // Entities in values, kept and not.
    #"<a href="https://e.example/?a=1&amp;b=2">l</a>"#,
    #"<a href="https://e.example/?a=1&b=2">l</a>"#,
    #"<img src="https://e.example/i.png" alt="Tom &amp; Jerry &eacute; &bogus; &#0;">"#,
    #"<img src="https://e.example/i.png" alt="a > b < c">"#,
    // Upper case names.
    #"<IMG src="https://e.example/i.png">"#,
    #"<img SRC="https://e.example/i.png" Alt="a">"#,
    #"<A HREF="https://e.example/">l</A>"#,
    // Duplicate attributes: the first counts.
    #"<a href="https://e.example/" href="javascript:x()">l</a>"#,
    #"<a href="javascript:x()" href="https://e.example/">l</a>"#,
    #"<img alt="a" alt="b" src="https://e.example/i.png">"#,
    // Unquoted and single-quoted values, bare names, space around `=`.
    "<a href=https://e.example/>l</a>",
    "<a href='https://e.example/'>l</a>",
    #"<img src="https://e.example/i.png" ismap>"#,
    #"<a href = "https://e.example/">l</a>"#,
    #"<a href="https://e.example/"title="t">l</a>"#,
    // Unsafe and odd schemes, spaces and controls in links.
    #"<a href="javascript:alert(1)">x</a>"#,
    #"<a href="httpx://e.example/">x</a>"#,
    #"<a href="HTTPS://e.example/">x</a>"#,
    #"<a href="https:">x</a>"#,
    #"<a href="http://e.example/a b">x</a>"#,
    #"<a href=" https://e.example/">x</a>"#,
    "<a href=\"https://e.example/\tx\">x</a>",
    #"<a href="mailto:a@example.com">m</a>"#,
    // Relative links, with dot segments.
    #"<a href="../related/x.html">r</a>"#,
    #"<a href="./a/../b/./c">r</a>"#,
    #"<img src="/wp-content/i.png" alt="r">"#,
    ##"<a href="#top">t</a>"##,
    // Attributes that go, and style.
    #"<a href="https://e.example/" onclick="x()">l</a>"#,
    #"<p style="color: red; position: absolute">s</p>"#,
    #"<blockquote class="embed" cite="https://e.example/">q</blockquote>"#,
    #"<script async src="https://e.example/embed.js"></script>after"#,
    // Elements that go, void and self-closing forms.
    #"<iframe src="https://e.example/">f</iframe>"#,
    #"<p class="a"/>x"#,
    #"<br class="a"/>x"#,
    #"<br class="a"/ >x"#,
    #"<img src="https://e.example/i.png"/x>"#,
    // Tags ended by a stray `<`, unclosed quotes, the end of the text.
    #"<a href="https://e.example/"<b>x</b>"#,
    #"<a href="https://e.example/>x</a>"#,
    #"<img src="https://e.example/i.png" alt="a""#,
    #"<img src="https://e.example/i.png""#,
    #"<a href="https://e.example/">"#,
    // SVG and MathML around, xmlns.
    #"<svg><a href="https://e.example/">l</a></svg><a href="https://e.example/">l</a>"#,
    #"<math><mi class="x">x</mi></math><p class="x">t</p>"#,
    #"<div xmlns="http://www.w3.org/1999/xhtml" class="c">t</div>"#,
    #"<applet><img src="https://e.example/i.png"></applet><img src="https://e.example/i.png">"#,
    // Long values and names.
    #"<a href="https://e.example/a/very/long/path/that/runs/past/sixty/four/bytes/of/value/x.html" title="t">l</a>"#,
    #"<img longdesc="https://e.example/d.html" src="https://e.example/i.png">"#,
    #"<blockquote cite="https://e.example/">q</blockquote>"#,
    // Relative links taken by the shortcut and decided by the sanitizer: written anew (one
    // space before each attribute, ` />` on a void element) when they resolve.
    #"<img src="/wp-content/i.png" alt="r" width="1"/>"#,
    #"<img  src="i.png"   alt="r">"#,
    #"<img alt="r" src="../i.png" longdesc="d.html">"#,
    "<a href=\"rel/x.html\"\ttitle=\"t\" class=\"c\">l</a>",
    #"<a href="//cdn.example/x.js" title="t">l</a>"#,
    #"<a href="?page=2" title="t">l</a>"#,
    #"<a href="" title="t">l</a>"#,
    #"<a href="javascript:void(0)" title="t">l</a>"#,
    #"<a href="mailto:a@example.com" title="t">l</a>"#,
    #"<a href="data:text/html,x" title="t">l</a>"#,
    #"<a href="ftp://e.example/f" title="t">l</a>"#,
    #"<q cite="../source.html" class="c">q</q>"#,
    #"<p cite="../source.html" class="c">t</p>"#,
    #"<video poster="p.jpg" src="v.mp4" controls="controls">v</video>"#,
    ##"<img src="https://e.example/i.png" usemap="#map">"##,
    #"<img src="i.png" alt="a"/ >x"#,
    #"<a href="x.html" href="y.html">l</a>"#,
    #"<a href="x.html"title="t">l</a>"#,
  ]

  /// The bases the tags are read against: a directory, one whose query holds `&` (escaped
  /// in a resolved link), one `MarkupBase` does not split (the full way's resolver), none.
  static let bases: [String?] = [
    base, "http://example.com/p/index.php?id=1&lang=en", "example.com/x/", nil,
  ]

  @Test(arguments: tags.indices)
  func sameAsTheFullWay(_ index: Int) {
    let tag = Self.tags[index]
    // Alone, in text, repeated (names remembered), and followed by enough text for the
    // shortcut's loads.
    let inputs = [
      tag, "x" + tag + "y", tag + tag + tag, tag + String(repeating: " t", count: 20),
      "<p>" + tag + "</p>" + String(repeating: "z", count: 40),
    ]
    for input in inputs {
      for base in Self.bases {
        for flavour in [HTMLSanitizer.Flavour.html, .xhtml] {
          var shortcut = HTMLSanitizer()
          var full = HTMLSanitizer()
          full.usesKeptStartTags = false
          let fast = shortcut.sanitize(input, base: base, flavour: flavour)
          let slow = full.sanitize(input, base: base, flavour: flavour)
          #expect(fast == slow, "\(input) \(String(describing: base)) \(flavour)")
        }
      }
    }
  }

  /// The shortcut does take the common tags (else it would only cost time).
  @Test func takesTheCommonTags() {
    let shortcut = HTMLKeptStartTags()
    for tag in [
      #"<img src="https://cdn.example.com/i/1.jpg" alt="An image" width="640" height="480"/>"#,
      #"<a href="https://e.example/posts/1#more">"#, #"<p class="c" id="i">"#,
      #"<img src="/wp-content/i.png" alt="r">"#, #"<a href="../x.html" title="t">"#,
    ] {
      let bytes = Array((tag + String(repeating: " ", count: 16)).utf8)
      let kept = bytes.withUnsafeBufferPointer { shortcut.keptTag(at: 0, in: $0) }
      #expect(kept?.end == tag.utf8.count, "\(tag)")
    }
  }
}
