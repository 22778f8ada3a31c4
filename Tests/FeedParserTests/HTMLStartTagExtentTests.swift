import Testing

@testable import FeedParser

/// The text renderer's start tags read only to their end (`HTMLTokenizer.startTagExtent`)
/// against the tokenizer's full reading: the same text for tags taken and near misses.
@Suite struct HTMLStartTagExtentTests {
  /// Start tags with attributes, the common spelling and every way out of it: white space other
  /// than one space, single quotes and none, `/` and `/>` in odd places, names starting with
  /// `=` or holding quotes, `<` inside, unclosed quotes, raw-text and hidden elements, `pre`.
  static let tags: [String] = [
    #"<img src="https://cdn.example.com/img/1.jpg" alt="Benchmark content" width="640" height="480"/>"#,
    #"<a href="https://example.com/posts/1#more">"#,
    #"<a href="/archive/2003/">"#,
    #"<blockquote class="embed">"#,
    #"<p class="x" >"#,
    #"<p class="x" />"#,
    #"<p class="x"/>"#,
    #"<p class="x" / >"#,
    #"<br />"#,
    #"<br/>"#,
    #"<div/>"#,
    #"<div />"#,
    #"<div data-x="1" aria-label="two words">"#,
    #"<div xml:lang="en" id="a1">"#,
    #"<p  class="x">"#,
    "<p\tclass=\"x\">",
    "<p\nclass=\"x\">",
    #"<p class='x'>"#,
    #"<p class=x>"#,
    #"<p class=x/>"#,
    #"<p class=/>"#,
    #"<p class= "x">"#,
    #"<p class ="x">"#,
    #"<p ="x">"#,
    #"<p a"b="x">"#,
    #"<p a'b="x">"#,
    #"<p class="x"y="z">"#,
    #"<p class="x>y">"#,
    #"<p class="x<y">"#,
    #"<p class="never closed>"#,
    #"<p class="never closed"#,
    #"<p class="x"<b>"#,
    #"<p<b>"#,
    #"<p hidden>"#,
    #"<p hidden class="x">"#,
    #"<pre class="code">"#,
    #"<script async src="https://social.example/embed.js">"#,
    #"<style media="all">"#,
    #"<title lang="en">"#,
    #"<unknown-element class="x">"#,
    #"<UL CLASS="X">"#,
    #"<li value="3">"#,
    #"<a href="x" href="y">"#,
    #"<img alt="a-very-long-alternative-text-that-runs-past-sixty-four-bytes-of-value-ok">"#,
    // Names alone, and what may follow them.
    #"<script async src="https://social.example/embed.js">"#,
    #"<input disabled>"#,
    #"<input disabled/>"#,
    #"<input disabled />"#,
    #"<input disabled >"#,
    #"<input disabled  checked>"#,
    #"<input disabled = "x">"#,
    #"<input disabled ="x">"#,
    #"<input disabled= "x">"#,
    #"<input disabled"x">"#,
    #"<input disabled<b>"#,
    #"<input disabled checked value="v">"#,
    #"<input abcdefghijklmnopqrstu>"#,
    #"<input abcdefghijklmn="x">"#,
    #"<input abcdefghijklmno="x">"#,
    #"<input abcdefghijklmnop="x">"#,
    #"<details open class="x">"#,
    "<input disabled\tchecked>",
  ]

  @Test(arguments: tags.indices)
  func sameAsTheTokenizer(_ index: Int) {
    let tag = Self.tags[index]
    var inputs = [
      tag, tag + "text", "<p>a</p>" + tag + "b c  d</p>", tag + tag + "x", "x " + tag + " y",
    ]
    // Filler after the tag, so that it ends at every distance from the text's end, and the
    // tag cut short at every length.
    for count in 0...33 {
      inputs.append(tag + String(repeating: "w", count: count))
      inputs.append("<div>" + tag + "word " + String(repeating: "v", count: count) + "</div>")
    }
    for length in 1..<tag.utf8.count {
      inputs.append(String(decoding: Array(tag.utf8.prefix(length)), as: UTF8.self))
    }
    for input in inputs {
      var extents = HTMLTextRenderer()
      var tokens = HTMLTextRenderer()
      tokens.usesTagExtents = false
      let bytes = Array(input.utf8)
      let fast = bytes.withUnsafeBufferPointer { extents.render($0) }
      let slow = bytes.withUnsafeBufferPointer { tokens.render($0) }
      #expect(fast == slow, "\(input)")
    }
  }

  /// The common spellings are taken: name, end and slash as the tokenizer reads them.
  @Test func readsCommonTags() {
    let storage = HTMLAttributeStorage()
    for (tag, selfClosing) in [
      (#"<img src="https://cdn.example.com/i.jpg" alt="x" width="640" height="480"/>"#, true),
      (#"<a href="/archive/2003/">"#, false),
      (#"<p class="x" />"#, true),
      (#"<p class="x" >"#, false),
      ("<br/>", true),
      (#"<script async src="https://social.example/embed.js">"#, false),
      (#"<input disabled/>"#, true),
    ] {
      let bytes = Array((tag + String(repeating: " ", count: 16)).utf8)
      bytes.withUnsafeBufferPointer { input in
        var extent = HTMLTokenizer(input, storage: storage)
        var full = HTMLTokenizer(input, storage: storage)
        let read = extent.startTagExtent()
        guard case .startTag(let name, let whole, let closes) = full.next() else {
          Issue.record("not a start tag: \(tag)")
          return
        }
        #expect(read?.name == name, "\(tag)")
        #expect(read?.end == whole.upperBound, "\(tag)")
        #expect(read?.selfClosing == closes, "\(tag)")
        #expect(closes == selfClosing, "\(tag)")
      }
    }
  }
}
