/// Each distinct element's route, classified once per document. libxml2 interns names in the
/// context's dictionary, so a name's address identifies it for the whole parse.
struct ElementRouteCache {
  private struct ElementKey: Hashable {
    let localname: UnsafeRawPointer
    let uri: UnsafeRawPointer?
    let prefix: UnsafeRawPointer?

    /// A slot of `recent`: a multiplicative hash of the addresses (libxml2 packs interned
    /// names end to end, so low bits alone collide).
    var slot: Int {
      let bits = UInt64(UInt(bitPattern: localname)) ^ UInt64(UInt(bitPattern: uri)) &<< 1
      return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) &>> 56)
    }
  }

  private var byKey: [ElementKey: FieldRoute] = [:]
  /// In front of `byKey`: hashing every start tag's key (SipHash) cost more than a percent of
  /// a parse. Two ways to each of 256 sets, the latest in front: a feed has a few dozen
  /// distinct elements, and direct-mapped, two of them shared a slot in most documents (40
  /// names in 256 slots) and evicted each other item after item, how often depending on where
  /// libxml2's dictionary happened to put the names (0.4% of a podcast feed's parse moved
  /// with the memory layout). Three names in one set are rare.
  private var recent = [(key: ElementKey, route: FieldRoute)?](repeating: nil, count: 512)

  /// The route of the element with these interned names (the prefix counts only without a URI:
  /// an undeclared prefix is read by its customary namespace).
  mutating func route(
    localname: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?,
    uri: UnsafePointer<UInt8>?
  ) -> FieldRoute {
    let key = ElementKey(
      localname: UnsafeRawPointer(localname), uri: uri.map(UnsafeRawPointer.init),
      prefix: uri == nil ? prefix.map(UnsafeRawPointer.init) : nil)
    let slot = key.slot &* 2
    if let hit = recent[slot], hit.key == key { return hit.route }
    if let hit = recent[slot &+ 1], hit.key == key { return hit.route }
    let route: FieldRoute
    if let known = byKey[key] {
      route = known
    } else {
      let namespace = FeedNamespace.classify(
        uri: uri.map { String(cString: $0) }, prefix: prefix.map { String(cString: $0) })
      route = FeedElementTable.route(namespace: namespace, localName: String(cString: localname))
      byKey[key] = route
    }
    recent[slot &+ 1] = recent[slot]
    recent[slot] = (key, route)
    return route
  }
}
