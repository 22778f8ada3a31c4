import Testing

@testable import FeedParser

/// Tags with plain links written from what was remembered (`HTMLRewrittenStartTags`) against
/// tags decided every time: the same output from one sanitizer reused from text to text, the
/// same tags met again against the same base and against others.
@Suite struct HTMLRewrittenStartTagsTests {
  /// The bases in the order the texts meet them: the same one again, another, none, one
  /// `MarkupBase` does not split, back to the first.
  static let bases: [String?] = [
    HTMLKeptStartTagsTests.base, HTMLKeptStartTagsTests.base,
    "http://example.com/p/index.php?id=1&lang=en", nil, "example.com/x/",
    HTMLKeptStartTagsTests.base, nil, HTMLKeptStartTagsTests.base,
  ]

  @Test(arguments: HTMLKeptStartTagsTests.tags.indices)
  func sameAsDecidingEachTime(_ index: Int) {
    let tag = HTMLKeptStartTagsTests.tags[index]
    let inputs = [
      tag, "x" + tag + "y" + tag, tag + tag + tag, "<p>" + tag + "</p>" + tag + " t t",
      tag + String(repeating: " t", count: 20),
    ]
    for flavour in [HTMLSanitizer.Flavour.html, .xhtml] {
      var remembering = HTMLSanitizer()
      for base in Self.bases {
        for input in inputs {
          var deciding = HTMLSanitizer()
          deciding.usesRewrittenTags = false
          let fast = remembering.sanitize(input, base: base, flavour: flavour)
          let slow = deciding.sanitize(input, base: base, flavour: flavour)
          #expect(fast == slow, "\(input) \(String(describing: base)) \(flavour)")
        }
      }
    }
  }

  /// Many distinct relative links, more than the slots hold, each met several times in turn
  /// with tags that only differ in their last bytes or their middle.
  @Test func manyTagsInTurn() {
    var links: [String] = []
    for number in 0..<150 {
      links.append(#"<a href="/archive/\#(number)/">"#)
      links.append(#"<img src="/wp-content/uploads/\#(number).png" alt="chart" width="300"/>"#)
      links.append(#"<a href="../x\#(number)/y/">"#)
      // Longer than the eighty bytes looked through before a tag is read.
      links.append(
        #"<img src="/wp-content/uploads/\#(number)/a-long-name-for-a-picture.png" alt="c" width="3"/>"#
      )
      links.append(#"<img src="https://e.example/\#(number).png" longdesc="d\#(number).html">"#)
    }
    var remembering = HTMLSanitizer()
    for round in 0..<3 {
      for (index, link) in links.enumerated() {
        let input = "<p>" + link + "t</a> " + links[(index * 7 + round) % links.count] + "</p>"
        var deciding = HTMLSanitizer()
        deciding.usesRewrittenTags = false
        let base = round == 1 ? "http://other.example/a/b" : HTMLKeptStartTagsTests.base
        let fast = remembering.sanitize(input, base: base, flavour: .html)
        let slow = deciding.sanitize(input, base: base, flavour: .html)
        #expect(fast == slow, "\(input)")
      }
    }
  }
}
