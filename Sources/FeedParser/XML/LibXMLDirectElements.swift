import CLibXML2

#if canImport(Glibc)
  import Glibc
#endif

/// Elements that libxml2 is spared: `SimpleMarkupScanner` reads a childless element, or one
/// whose children are all childless, and the builder gets the events libxml2 would have sent
/// (each start with interned names and resolved namespaces, the decoded text, each end), while
/// libxml2, waiting in element content, never sees the bytes. Part of the door to libxml2: the
/// names are interned in libxml2's dictionary (the builder's route cache is keyed by those
/// addresses) and prefixes resolved against libxml2's own namespace table.
extension LibXMLPushParser {
  /// An element's names as libxml2 would pass them.
  struct ResolvedName {
    var localname: UnsafePointer<xmlChar>?
    var prefix: UnsafePointer<xmlChar>?
    var uri: UnsafePointer<xmlChar>?
  }

  /// Hands `scanner`'s element (`bytes[start..<end]`) to the builder (the caller counts its
  /// lines for libxml2, `skipped`); false, having done nothing, when libxml2 must read it after
  /// all: a prefix not declared (an error libxml2 reports), attributes a DTD gives defaults or
  /// types to, or nesting near libxml2's limit. Every name is resolved before the first event.
  func handOver(
    _ scanner: SimpleMarkupScanner, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int,
    decodedText: inout [UInt8]
  ) -> Bool {
    let context = self.context
    guard context.pointee.attsDefault == nil, context.pointee.attsSpecial == nil,
      context.pointee.nameNr < 248, let dict = context.pointee.dict
    else { return false }
    let base = bytes.baseAddress!.assumingMemoryBound(to: xmlChar.self)
    let names = internedNames
    @inline(__always) func intern(_ from: Int, _ to: Int) -> UnsafePointer<xmlChar>? {
      names.intern(base + from, count: to &- from, in: dict)
    }
    let partCount = scanner.partCount
    let resolved = resolvedNames.reserve(partCount)
    let slots = attributeSlots.reserve(scanner.attributeCount * 5)
    for index in 0..<partCount {
      let name = scanner.parts[index].name
      let prefix = name.hasPrefix ? intern(name.start, name.colon) : nil
      if name.hasPrefix, prefix == nil { return false }
      guard let localname = intern(name.localStart, name.end) else { return false }
      let uri = namespace(of: prefix)
      if prefix != nil, uri == nil { return false }
      resolved[index] = ResolvedName(localname: localname, prefix: prefix, uri: uri)
    }
    for index in 0..<scanner.attributeCount {
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
    // The events, in libxml2's order; none after the builder stops the parse. A childless
    // element's text is the text after its (no) last child.
    var running: Bool { !hasHalted && !builder.isStopped }
    builder.nextElementIsChildless = partCount == 1
    deliverStart(scanner.parts[0], resolved[0], attributes: slots)
    guard running else { return true }
    for child in 1..<partCount {
      let part = scanner.parts[child]
      text(bytes, part.gapStart, part.gapEnd, scratch: &decodedText)
      guard running else { return true }
      deliverStart(part, resolved[child], attributes: slots)
      guard running else { return true }
      text(bytes, part.textStart, part.textEnd, scratch: &decodedText)
      guard running else { return true }
      builder.endElement()
      guard running else { return true }
    }
    if partCount == 1 {
      // A childless element's text and end in one event: a namespaced field takes the text
      // from here, not from the builder's capture buffer.
      let from = scanner.gapStart
      PlainCharacterData.withText(
        of: UnsafeRawBufferPointer(rebasing: bytes[from..<max(from, scanner.gapEnd)]),
        scratch: &decodedText
      ) { builder.endElement(withText: $0) }
      return true
    }
    text(bytes, scanner.gapStart, scanner.gapEnd, scratch: &decodedText)
    guard running else { return true }
    builder.endElement()
    return true
  }

  /// `part`'s start event, its attributes at their place in `attributes` (five slots each).
  @inline(__always)
  private func deliverStart(
    _ part: SimpleMarkupScanner.Part, _ name: ResolvedName,
    attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>
  ) {
    let count = part.attributesEnd - part.attributesStart
    builder.startElement(
      localname: name.localname!, prefix: name.prefix, uri: name.uri,
      namespaces: UnsafeBufferPointer(start: nil, count: 0),
      attributes: XMLAttributes(
        base: count == 0 ? nil : attributes + part.attributesStart * 5, count: count,
        context: context, valuesArePlain: true))
  }

  /// The text of `bytes[from..<to]`, if any, as libxml2 hands it over.
  @inline(__always)
  private func text(
    _ bytes: UnsafeRawBufferPointer, _ from: Int, _ to: Int, scratch: inout [UInt8]
  ) {
    guard to > from else { return }
    PlainCharacterData.withText(
      of: UnsafeRawBufferPointer(rebasing: bytes[from..<to]), scratch: &scratch
    ) { builder.characters($0) }
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

/// Memory kept from element to element for what a hand-over builds: libxml2's attribute array
/// (five pointers an attribute), the resolved names.
final class ReusableBuffer<Element> {
  private var storage: UnsafeMutablePointer<Element>
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    storage = .allocate(capacity: capacity)
  }

  deinit { storage.deallocate() }

  /// Room for `count` elements, to be written before they are read; what was there before is
  /// not kept.
  func reserve(_ count: Int) -> UnsafeMutablePointer<Element> {
    if count > capacity {
      storage.deallocate()
      capacity = count
      storage = .allocate(capacity: capacity)
    }
    return storage
  }
}

/// Names interned in libxml2's dictionary, remembered by their bytes: a feed has a few dozen
/// distinct names, and looking each up in the dictionary (hashing it, comparing) cost a tenth
/// of handing an element over. Two ways to each of 256 sets, the latest in front, as in
/// `ElementRouteCache`: direct-mapped in 128 slots, the sixty names of a podcast item (elements,
/// prefixes, attributes) evicted each other about twelve times an item, each a dictionary
/// look-up. A name found is checked byte for byte.
final class InternedNames {
  private struct Entry {
    var name: UnsafePointer<xmlChar>?
    var count = 0
    /// The first eight bytes of the name (zero-padded): a short name is compared by this alone.
    var head: UInt64 = 0
  }

  private static let setBits = 8
  private var entries = UnsafeMutablePointer<Entry>.allocate(capacity: 2 << setBits)

  init() { entries.initialize(repeating: Entry(), count: 2 << Self.setBits) }

  deinit { entries.deallocate() }

  /// The dictionary's copy of `bytes[0..<count]`; nil when libxml2 cannot add it.
  @inline(__always)
  func intern(_ bytes: UnsafePointer<xmlChar>, count: Int, in dict: xmlDictPtr)
    -> UnsafePointer<xmlChar>?
  {
    let key = NameKey(bytes, count: count)
    let set = entries + key.slot(bits: Self.setBits) &* 2
    if let name = Self.match(set, key, bytes, count) { return name }
    if let name = Self.match(set + 1, key, bytes, count) {
      // The latest in front.
      let found = set[1]
      set[1] = set[0]
      set[0] = found
      return name
    }
    guard let name = xmlDictLookup(dict, bytes, Int32(count)) else { return nil }
    set[1] = set[0]
    set[0] = Entry(name: name, count: count, head: key.head)
    return name
  }

  @inline(__always)
  private static func match(
    _ entry: UnsafeMutablePointer<Entry>, _ key: NameKey, _ bytes: UnsafePointer<xmlChar>,
    _ count: Int
  ) -> UnsafePointer<xmlChar>? {
    guard let name = entry.pointee.name, entry.pointee.count == count,
      entry.pointee.head == key.head,
      count <= 8 || memcmp(name + 8, bytes + 8, count &- 8) == 0
    else { return nil }
    return name
  }
}
