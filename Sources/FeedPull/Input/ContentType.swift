/// The `charset` parameter of an HTTP `Content-Type`, which the parser weighs against the
/// document's own declaration (the contract's encoding rule).
enum ContentType {
  static func charset(of contentType: String?) -> String? {
    guard let contentType else { return nil }
    for parameter in contentType.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1)
      guard pair.count == 2,
        pair[0].trimmingSpaces().lowercased() == "charset"
      else { continue }
      let value = pair[1].trimmingSpaces().trimmingCharacters(quote: "\"")
      return value.isEmpty ? nil : value
    }
    return nil
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> Substring {
    var text = self
    while text.first == " " || text.first == "\t" { text = text.dropFirst() }
    while text.last == " " || text.last == "\t" { text = text.dropLast() }
    return text
  }

  fileprivate func trimmingCharacters(quote: Character) -> String {
    var text = self
    if text.first == quote { text = text.dropFirst() }
    if text.last == quote { text = text.dropLast() }
    return String(text)
  }
}
