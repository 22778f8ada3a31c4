import CLibXML2

/// libxml2's attribute array: five pointers an attribute (local name, prefix, URI, value start,
/// value end), valid only during the `startElementNs` callback.
struct XMLAttributes {
  let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
  let count: Int
  /// For the entities an attribute value still refers to.
  let context: xmlParserCtxtPtr?

  /// The value of the attribute named `name` with no namespace, or in the `xml` namespace
  /// when `xmlNamespace` is set.
  func value(_ name: StaticString, inXMLNamespace: Bool = false) -> String? {
    guard let base else { return nil }
    for index in 0..<count {
      let entry = base + index * 5
      guard let localname = entry[0], bytesEqual(localname, name) else { continue }
      let prefix = entry[1]
      if inXMLNamespace {
        guard let prefix, bytesEqual(prefix, "xml") else { continue }
      } else if let prefix, !bytesEqual(prefix, "rdf") {
        continue
      }
      guard let start = entry[3], let end = entry[4] else { return nil }
      return decodedValue(UnsafeBufferPointer(start: start, count: end - start))
    }
    return nil
  }

  /// Every attribute as (qualified name, value), for serializing markup.
  func all() -> [(name: String, value: String)] {
    guard let base else { return [] }
    var result: [(name: String, value: String)] = []
    for index in 0..<count {
      let entry = base + index * 5
      guard let localname = entry[0], let start = entry[3], let end = entry[4] else { continue }
      var name = String(cString: localname)
      if let prefix = entry[1] { name = String(cString: prefix) + ":" + name }
      result.append((name, decodedValue(UnsafeBufferPointer(start: start, count: end - start))))
    }
    return result
  }
}

extension XMLAttributes {
  /// Without `XML_PARSE_NOENT`, libxml2's SAX2 hands over `&amp;` in an attribute value as
  /// `&#38;` and a declared entity as its reference (`&foo;`), ready for a tree that would
  /// keep entity nodes: finish the decoding here, once.
  fileprivate func decodedValue(_ bytes: UnsafeBufferPointer<xmlChar>) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    guard bytes.contains(UInt8(ascii: "&")) else { return text }
    return decodeReferences(text, depth: 0)
  }

  private func decodeReferences(_ text: String, depth: Int) -> String {
    var result = ""
    var rest = Substring(text)
    while let ampersand = rest.firstIndex(of: "&") {
      result += rest[..<ampersand]
      let afterAmpersand = rest.index(after: ampersand)
      guard let semicolon = rest[afterAmpersand...].firstIndex(of: ";"),
        rest.distance(from: afterAmpersand, to: semicolon) <= 64
      else {
        result += "&"
        rest = rest[afterAmpersand...]
        continue
      }
      let name = String(rest[afterAmpersand..<semicolon])
      if name == "#38" {
        result += "&"
      } else if depth < 4, result.utf8.count < 1 << 16, let replacement = internalEntity(name) {
        result += decodeReferences(replacement, depth: depth + 1)
      } else {
        result += rest[ampersand...semicolon]
      }
      rest = rest[rest.index(after: semicolon)...]
    }
    return result + rest
  }

  private func internalEntity(_ name: String) -> String? {
    guard let context, !name.hasPrefix("#"),
      let entity = name.withCString({
        xmlSAX2GetEntity(context, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self))
      }),
      entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY, let content = entity.pointee.content
    else { return nil }
    return String(cString: content)
  }
}

/// Compares a NUL-terminated libxml2 name with an ASCII literal without allocating.
func bytesEqual(_ cString: UnsafePointer<xmlChar>, _ literal: StaticString) -> Bool {
  let count = literal.utf8CodeUnitCount
  let literalBytes = literal.utf8Start
  for index in 0..<count where cString[index] != literalBytes[index] { return false }
  return cString[count] == 0
}
