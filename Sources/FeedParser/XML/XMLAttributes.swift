import CLibXML2

#if canImport(Glibc)
  import Glibc
#endif

/// libxml2's attribute array: five pointers an attribute (local name, prefix, URI, value start,
/// value end), valid only during the `startElementNs` callback.
struct XMLAttributes {
  let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
  let count: Int
  /// For the entities an attribute value still refers to.
  let context: xmlParserCtxtPtr?
  /// True when no value has a reference to decode (`SimpleMarkupScanner` hands over only such
  /// values): each value is then made into a `String` without looking for `&` first.
  let valuesArePlain: Bool
  /// A bit for each attribute's first letter (its low six bits): a look-up for a name whose
  /// letter is not there ends at once. Most look-ups are for attributes an element does not
  /// have (a reader asks for each one it knows; every element is asked for `xml:base`), and
  /// each compared its name with every attribute there was.
  private let firstLetters: UInt64

  init(
    base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int,
    context: xmlParserCtxtPtr?, valuesArePlain: Bool = false
  ) {
    self.base = base
    self.count = count
    self.context = context
    self.valuesArePlain = valuesArePlain
    var letters: UInt64 = 0
    if let base {
      for index in 0..<count {
        if let name = base[index &* 5] { letters |= Self.letterBit(name[0]) }
      }
    }
    firstLetters = letters
  }

  @inline(__always)
  private static func letterBit(_ byte: UInt8) -> UInt64 { 1 &<< UInt64(byte & 63) }

  /// The value of the attribute named `name` with no namespace, or in the `xml` namespace
  /// when `xmlNamespace` is set.
  func value(_ name: StaticString, inXMLNamespace: Bool = false) -> String? {
    guard let bytes = rawValue(name, inXMLNamespace: inXMLNamespace) else { return nil }
    return decodedValue(bytes)
  }

  /// The bytes, as libxml2 left them, of the first attribute with no prefix named `name` in
  /// any letter case: OPML's `xmlUrl`, which lists also spell `xmlURL` and `xmlurl`.
  func rawValueIgnoringCase(_ name: StaticString) -> UnsafeBufferPointer<xmlChar>? {
    guard let base else { return nil }
    for index in 0..<count {
      let entry = base + index * 5
      guard entry[1] == nil, let localname = entry[0], bytesEqualIgnoringCase(localname, name),
        let start = entry[3], let end = entry[4]
      else { continue }
      return UnsafeBufferPointer(start: start, count: end - start)
    }
    return nil
  }

  /// An attribute's bytes (`rawValueIgnoringCase`) with their references decoded.
  func decoded(_ bytes: UnsafeBufferPointer<xmlChar>) -> String {
    decodedValue(bytes)
  }

  /// The value without white space at either end, nil when that leaves nothing: what a
  /// namespace's reader keeps of an attribute. Trimmed on the bytes, so that a value is made
  /// into a `String` once (a podcast item has some twenty such attributes; trimming the
  /// `String` afterwards cost a copy of each).
  func trimmedValue(_ name: StaticString) -> String? {
    switch trimmedBytes(name) {
    case .absent: return nil
    case .plain(let bytes):
      return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    case .encoded(let bytes):
      // A reference may stand for white space: trim what it decodes to.
      let decoded = decodeReferences(String(decoding: bytes, as: UTF8.self), depth: 0)
        .trimmingSpaces()
      return decoded.isEmpty ? nil : decoded
    }
  }

  /// An attribute's bytes without surrounding white space (see `trimmedBytes`).
  enum TrimmedBytes {
    case absent
    /// With no reference to decode (maybe empty).
    case plain(UnsafeBufferPointer<UInt8>)
    /// With references: only its decoded text says what it is.
    case encoded(UnsafeBufferPointer<UInt8>)
  }

  /// The value of the attribute named `name` (no namespace) as bytes, trimmed on the bytes:
  /// what `trimmedValue` makes a `String` of once, and a reader of numbers reads without one
  /// (making a `String` for each number, an enclosure's length, a soundbite's start, was about
  /// a third of reading it).
  func trimmedBytes(_ name: StaticString) -> TrimmedBytes {
    guard var trimmed = rawValue(name, inXMLNamespace: false) else { return .absent }
    while let first = trimmed.first, first.isXMLSpace {
      trimmed = UnsafeBufferPointer(rebasing: trimmed.dropFirst())
    }
    while let last = trimmed.last, last.isXMLSpace {
      trimmed = UnsafeBufferPointer(rebasing: trimmed.dropLast())
    }
    return !valuesArePlain && Self.containsAmpersand(trimmed) ? .encoded(trimmed) : .plain(trimmed)
  }

  /// The bytes of the attribute named `name` as libxml2 left them (references undecoded).
  /// Inlined into its two callers: a podcast item looks up some forty attributes, and the
  /// call between them was a sixth of each look-up.
  @inline(__always)
  private func rawValue(_ name: StaticString, inXMLNamespace: Bool) -> UnsafeBufferPointer<
    xmlChar
  >? {
    guard let base, firstLetters & Self.letterBit(name.utf8Start[0]) != 0 else { return nil }
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
      return UnsafeBufferPointer(start: start, count: end - start)
    }
    return nil
  }

  /// `memchr`: attribute values are mostly URLs, and a byte-by-byte look for `&` was a third
  /// of reading one.
  private static func containsAmpersand(_ bytes: UnsafeBufferPointer<xmlChar>) -> Bool {
    guard let start = bytes.baseAddress, !bytes.isEmpty else { return false }
    return memchr(start, Int32(UInt8(ascii: "&")), bytes.count) != nil
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
    guard !valuesArePlain, Self.containsAmpersand(bytes) else { return text }
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
/// Inlined with its first-byte test, which turns most names away (an element's attributes are
/// looked up by name one after another: measured 1.9 M instructions of a 5 MB podcast feed).
@inline(__always)
func bytesEqual(_ cString: UnsafePointer<xmlChar>, _ literal: StaticString) -> Bool {
  let count = literal.utf8CodeUnitCount
  let literalBytes = literal.utf8Start
  guard count == 0 || cString[0] == literalBytes[0] else { return false }
  var index = 1
  while index < count {
    if cString[index] != literalBytes[index] { return false }
    index &+= 1
  }
  return cString[count] == 0
}

/// Compares a NUL-terminated libxml2 name with an ASCII literal, letters in any case (OPML's
/// names as its readers take them).
func bytesEqualIgnoringCase(_ cString: UnsafePointer<xmlChar>, _ literal: StaticString) -> Bool {
  let count = literal.utf8CodeUnitCount
  let literalBytes = literal.utf8Start
  for index in 0..<count
  where asciiLowercased(cString[index]) != asciiLowercased(literalBytes[index]) {
    return false
  }
  return cString[count] == 0
}

@inline(__always)
private func asciiLowercased(_ byte: UInt8) -> UInt8 {
  byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
}
