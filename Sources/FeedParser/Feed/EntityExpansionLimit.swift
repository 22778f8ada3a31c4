import CLibXML2

/// Entity lookups for libxml2 (see `LibXMLPushParser` for how SAX2 uses them), counting the
/// length of every internal entity each reference expands, nested ones included, so that a
/// billion-laughs or quadratic-blowup document stops at `maxEntityExpansion` characters
/// (FIELD-NOTES: libxml2 itself delivered 2,000,000,072 characters of one and called it
/// well-formed).
extension FeedDocumentBuilder {
  func entity(named name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    guard !isStopped, let context, let entity = xmlSAX2GetEntity(context, name) else {
      return nil
    }
    if entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY {
      expandedEntityCharacters += Int(entity.pointee.length)
      if expandedEntityCharacters > limits.maxEntityExpansion {
        stop(.xml, "entity references expand to more than \(limits.maxEntityExpansion) characters")
        return nil
      }
    }
    return entity
  }

  func parameterEntity(named name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    guard !isStopped, let context, let entity = xmlSAX2GetParameterEntity(context, name) else {
      return nil
    }
    if entity.pointee.etype == XML_INTERNAL_PARAMETER_ENTITY {
      expandedEntityCharacters += Int(entity.pointee.length)
      if expandedEntityCharacters > limits.maxEntityExpansion {
        stop(.xml, "entity references expand to more than \(limits.maxEntityExpansion) characters")
        return nil
      }
    }
    return entity
  }
}
