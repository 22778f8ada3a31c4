import CLibXML2

/// Entity lookups for libxml2 (see `LibXMLPushParser` for how SAX2 uses them), counting the
/// length of every internal entity each reference expands, nested ones included, so that a
/// billion-laughs or quadratic-blowup document stops at `maxEntityExpansion` characters
/// (docs/libraries.md: libxml2 itself delivered 2,000,000,072 characters of one and called it
/// well-formed).
extension FeedDocumentBuilder {
  func entity(named name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    guard !isStopped, let context else { return nil }
    return counted(xmlSAX2GetEntity(context, name), ifOfType: XML_INTERNAL_GENERAL_ENTITY)
  }

  func parameterEntity(named name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    guard !isStopped, let context else { return nil }
    return counted(
      xmlSAX2GetParameterEntity(context, name), ifOfType: XML_INTERNAL_PARAMETER_ENTITY)
  }

  /// Adds an internal entity's length to the document's expansion and stops the parse past the
  /// limit (then the reference gives nothing); external entities give no text, so cost nothing.
  private func counted(_ entity: xmlEntityPtr?, ifOfType internalType: xmlEntityType)
    -> xmlEntityPtr?
  {
    guard let entity else { return nil }
    if entity.pointee.etype == internalType {
      expandedEntityCharacters += Int(entity.pointee.length)
      if expandedEntityCharacters > limits.maxEntityExpansion {
        stop(.xml, "entity references expand to more than \(limits.maxEntityExpansion) characters")
        return nil
      }
    }
    return entity
  }
}
