import FeedParser

/// The `charset` parameter of an HTTP `Content-Type`, which the parser weighs against the
/// document's own declaration (docs/format.md, "Encodings").
enum ContentType {
  static func charset(of contentType: String?) -> String? {
    guard let contentType else { return nil }
    for parameter in contentType.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1)
      guard pair.count == 2,
        String(pair[0]).trimmingSpaces().lowercased() == "charset"
      else { continue }
      let value = String(pair[1]).trimmingSpaces().trimmingCharacters(quote: "\"")
      return value.isEmpty ? nil : value
    }
    return nil
  }
}

extension String {
  fileprivate func trimmingCharacters(quote: Character) -> String {
    var text = Substring(self)
    if text.first == quote { text = text.dropFirst() }
    if text.last == quote { text = text.dropLast() }
    return String(text)
  }
}
