import Testing

@testable import FeedParser

/// Start tags without attributes answered from the last two taken (`<p>` and `<blockquote>` in
/// turn): the sanitizer keeps them as written and the renderer renders as the tokenizer's
/// reading does, whatever the order.
@Suite struct HTMLPlainTagsTests {
  static let pieces = [
    "<p>a</p>", "<blockquote>b</blockquote>", "<br>", "<em>c</em>", "<hr>", "<pre>d\n e</pre>",
    "<li>f</li>", "<figure>g</figure>", "<figcaption>h</figcaption>", "<script>i</script>",
    "<b>j</b>", "<unknown>k</unknown>",
  ]

  @Test func inTurn() {
    var inputs: [String] = []
    for first in Self.pieces {
      for second in Self.pieces {
        inputs.append(first + second + first + second + second + first + "z")
        inputs.append(first + second + Self.pieces[2] + first + second)
      }
    }
    var sanitizer = HTMLSanitizer()
    var renderer = HTMLTextRenderer()
    for input in inputs {
      let bytes = Array(input.utf8)
      var tokens = HTMLTextRenderer()
      tokens.usesTagExtents = false
      let rendered = bytes.withUnsafeBufferPointer { renderer.render($0) }
      let tokenized = bytes.withUnsafeBufferPointer { tokens.render($0) }
      #expect(rendered == tokenized, "\(input)")
      var fresh = HTMLSanitizer()
      fresh.usesKeptStartTags = false
      let sanitized = sanitizer.sanitize(input, base: nil, flavour: .html)
      let alone = fresh.sanitize(input, base: nil, flavour: .html)
      #expect(sanitized == alone, "\(input)")
      if !input.contains("script") && !input.contains("unknown") {
        #expect(sanitized == nil, "\(input)")
      }
    }
  }
}
