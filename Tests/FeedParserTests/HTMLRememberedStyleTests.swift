import Testing

@testable import FeedParser

/// `style` values answered from the last one sanitized (`HTMLRememberedStyle`) against values
/// sanitized every time: the same output for repeated, alternating, decoded, dropped and SVG
/// styles, from one sanitizer reused from text to text.
@Suite struct HTMLRememberedStyleTests {
  static let styles: [String] = [
    #"<p style="text-align: center; position: relative">t</p>"#,
    #"<p style="text-align: center">t</p>"#,
    #"<p style="color: red; background: url(javascript:x)">t</p>"#,
    #"<p style="position: absolute">t</p>"#,
    #"<p style="">t</p>"#,
    #"<p style>t</p>"#,
    #"<p style="text-align:&#32;center">t</p>"#,
    #"<p style='text-align: center'>t</p>"#,
    #"<svg><rect style="fill: red; stroke: blue"/></svg>"#,
    #"<svg><rect style="text-align: center; position: relative"/></svg>"#,
    #"<span style="font-weight: bold" class="x">t</span>"#,
  ]

  @Test func sameAsSanitizingEachTime() {
    var inputs: [String] = []
    for (index, style) in Self.styles.enumerated() {
      inputs.append(style)
      inputs.append(style + style)
      inputs.append(style + Self.styles[(index + 1) % Self.styles.count] + style)
    }
    for flavour in [HTMLSanitizer.Flavour.html, .xhtml] {
      var remembering = HTMLSanitizer()
      for round in 0..<2 {
        for input in inputs {
          var sanitizing = HTMLSanitizer()
          sanitizing.usesRememberedStyle = false
          let fast = remembering.sanitize(input, base: nil, flavour: flavour)
          let slow = sanitizing.sanitize(input, base: nil, flavour: flavour)
          #expect(fast == slow, "\(input) \(flavour) \(round)")
        }
      }
    }
  }
}
