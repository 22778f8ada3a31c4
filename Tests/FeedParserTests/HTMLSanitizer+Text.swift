@testable import FeedParser

extension HTMLSanitizer {
  /// `text` sanitized (nil when safe as it is): the one way the fast-path tests run a sanitizer
  /// on a string, so that each compares its two configurations in one line each.
  mutating func sanitize(_ text: String, base: String? = nil, flavour: Flavour = .html)
    -> [UInt8]?
  {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { sanitize($0, base: base, flavour: flavour) }
  }
}
