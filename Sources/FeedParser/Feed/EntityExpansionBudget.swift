/// The entity expansion budget. libxml2 asks the door (`LibXMLPushParser`'s entity look-ups)
/// for every entity a reference names, nested ones included; the door hands the length of each
/// internal one here, so that a billion-laughs or quadratic-blowup document stops at
/// `maxEntityExpansion` characters (docs/libraries.md: libxml2 itself delivered 2,000,000,072
/// characters of one and called it well-formed).
extension FeedDocumentBuilder {
  /// Adds `characters` to the document's expansion; false (and the parse stopped) past the
  /// limit, and the reference then gives nothing. External entities give no text, so cost
  /// nothing and are not counted.
  func admitEntityExpansion(characters: Int) -> Bool {
    guard !isStopped else { return false }
    expandedEntityCharacters += characters
    if expandedEntityCharacters > limits.maxEntityExpansion {
      stop(.xml, "entity references expand to more than \(limits.maxEntityExpansion) characters")
      return false
    }
    return true
  }
}
