import CLibXML2

#if canImport(Glibc)
  import Glibc
#endif

/// Elements that libxml2 is spared: `SimpleMarkupScanner` reads a childless element, and the
/// builder gets the same three events libxml2 would have sent (start with interned names and
/// resolved namespaces, the decoded text, end), while libxml2, waiting in element content,
/// never sees its bytes. Part of the door to libxml2: the names are interned in libxml2's
/// dictionary (the builder's route cache is keyed by those addresses) and prefixes resolved
/// against libxml2's own namespace table.
extension LibXMLPushParser {
  /// Hands `scanner`'s element (`bytes[start..<end]`) to the builder (the caller counts its
  /// lines for libxml2, `skipped`); false, having done nothing, when libxml2 must read it after all: a prefix not declared (an error libxml2
  /// reports), attributes a DTD gives defaults or types to, or nesting near libxml2's limit.
  func handOver(
    _ scanner: SimpleMarkupScanner, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int,
    decodedText: inout [UInt8]
  ) -> Bool {
    let context = self.context
    guard context.pointee.attsDefault == nil, context.pointee.attsSpecial == nil,
      context.pointee.nameNr < 250, let dict = context.pointee.dict
    else { return false }
    let base = bytes.baseAddress!.assumingMemoryBound(to: xmlChar.self)
    let names = internedNames
    func intern(_ from: Int, _ to: Int) -> UnsafePointer<xmlChar>? {
      names.intern(base + from, count: to &- from, in: dict)
    }
    let name = scanner.name
    let prefix = name.hasPrefix ? intern(name.start, name.colon) : nil
    if name.hasPrefix, prefix == nil { return false }
    guard let localname = intern(name.localStart, name.end) else { return false }
    let uri = namespace(of: prefix)
    if prefix != nil, uri == nil { return false }
    let attributeCount = scanner.attributeCount
    let slots = attributeSlots.reserve(attributeCount * 5)
    for index in 0..<attributeCount {
      let attribute = scanner.attributes[index]
      let attributeName = attribute.name
      var attributePrefix: UnsafePointer<xmlChar>?
      var attributeURI: UnsafePointer<xmlChar>?
      if attributeName.hasPrefix {
        attributePrefix = intern(attributeName.start, attributeName.colon)
        attributeURI = namespace(of: attributePrefix)
        guard attributeURI != nil else { return false }
      }
      guard let local = intern(attributeName.localStart, attributeName.end) else { return false }
      let slot = slots + index * 5
      slot[0] = local
      slot[1] = attributePrefix
      slot[2] = attributeURI
      slot[3] = UnsafePointer(base + attribute.valueStart)
      slot[4] = UnsafePointer(base + attribute.valueEnd)
    }
    builder.startElement(
      localname: localname, prefix: prefix, uri: uri,
      namespaces: UnsafeBufferPointer(start: nil, count: 0),
      attributes: XMLAttributes(
        base: attributeCount == 0 ? nil : slots, count: attributeCount, context: context))
    guard !hasHalted, !builder.isStopped else { return true }
    if scanner.textEnd > scanner.textStart {
      let text = UnsafeRawBufferPointer(rebasing: bytes[scanner.textStart..<scanner.textEnd])
      PlainCharacterData.withText(of: text, scratch: &decodedText) { builder.characters($0) }
      guard !hasHalted, !builder.isStopped else { return true }
    }
    builder.endElement()
    return true
  }

  /// The namespace `prefix` (interned; nil for the default namespace) names where the element
  /// is, as libxml2 resolves it: the innermost declaration, and none for `xmlns=""`.
  private func namespace(of prefix: UnsafePointer<xmlChar>?) -> UnsafePointer<xmlChar>? {
    let context = self.context
    guard let table = context.pointee.nsTab else { return nil }
    var index = Int(context.pointee.nsNr) - 2
    while index >= 0 {
      if table[index] == prefix {
        guard let uri = table[index + 1] else { return nil }
        if prefix == nil && uri.pointee == 0 { return nil }
        return uri
      }
      index -= 2
    }
    return nil
  }
}

/// libxml2's attribute array for an element handed over (five pointers an attribute), kept from
/// element to element.
final class AttributeSlots {
  private var slots: UnsafeMutablePointer<UnsafePointer<xmlChar>?>
  private var capacity = 80

  init() { slots = .allocate(capacity: capacity) }

  deinit { slots.deallocate() }

  /// Room for `count` pointers; what was there before is not kept.
  func reserve(_ count: Int) -> UnsafeMutablePointer<UnsafePointer<xmlChar>?> {
    if count > capacity {
      slots.deallocate()
      capacity = count
      slots = .allocate(capacity: capacity)
    }
    return slots
  }
}

/// Names interned in libxml2's dictionary, remembered by their bytes: a feed has a few dozen
/// distinct names, and looking each up in the dictionary (hashing it, comparing) cost a tenth
/// of handing an element over. Direct-mapped; a name found is checked byte for byte.
final class InternedNames {
  private struct Entry {
    var name: UnsafePointer<xmlChar>?
    var count = 0
    /// The first eight bytes of the name (zero-padded): a short name is compared by this alone.
    var head: UInt64 = 0
  }

  private var entries = UnsafeMutablePointer<Entry>.allocate(capacity: 128)

  init() { entries.initialize(repeating: Entry(), count: 128) }

  deinit { entries.deallocate() }

  /// The dictionary's copy of `bytes[0..<count]`; nil when libxml2 cannot add it.
  @inline(__always)
  func intern(_ bytes: UnsafePointer<xmlChar>, count: Int, in dict: xmlDictPtr)
    -> UnsafePointer<xmlChar>?
  {
    var head: UInt64 = 0
    withUnsafeMutableBytes(of: &head) {
      $0.baseAddress!.copyMemory(from: bytes, byteCount: min(count, 8))
    }
    let last = UInt64(bytes[count &- 1])
    let hash = (head ^ (head &>> 27) ^ (last &<< 40) ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
    let entry = entries + Int(truncatingIfNeeded: hash &>> 57)
    if let name = entry.pointee.name, entry.pointee.count == count, entry.pointee.head == head,
      count <= 8 || memcmp(name + 8, bytes + 8, count &- 8) == 0
    {
      return name
    }
    guard let name = xmlDictLookup(dict, bytes, Int32(count)) else { return nil }
    entry.pointee = Entry(name: name, count: count, head: head)
    return name
  }
}
