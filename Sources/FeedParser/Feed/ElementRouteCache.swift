/// Each distinct element's route, classified once per document (again only if it was evicted
/// from its set, which is rare). libxml2 interns names in the context's dictionary, so a name's
/// address identifies it for the whole parse.
final class ElementRouteCache {
  private struct ElementKey {
    let localname: UnsafeRawPointer
    let uri: UnsafeRawPointer?
    let prefix: UnsafeRawPointer?

    /// A set of `recent`: a multiplicative hash of the addresses (libxml2 packs interned
    /// names end to end, so low bits alone collide).
    var set: Int {
      let bits = UInt64(UInt(bitPattern: localname)) ^ UInt64(UInt(bitPattern: uri)) &<< 1
      return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) &>> 56)
    }
  }

  /// A way of a set: empty while `localname` is nil.
  private struct Entry {
    var localname: UnsafeRawPointer?
    var uri: UnsafeRawPointer?
    var prefix: UnsafeRawPointer?
    var route = FieldRoute.unmapped

    @inline(__always)
    func holds(_ key: ElementKey) -> Bool {
      localname == key.localname && uri == key.uri && prefix == key.prefix
    }
  }

  /// The routes met, two ways to each of 256 sets, the latest in front: a feed has a few dozen
  /// distinct elements, and direct-mapped, two of them shared a slot in most documents (40
  /// names in 256 slots) and evicted each other item after item, how often depending on where
  /// libxml2's dictionary happened to put the names (0.4% of a podcast feed's parse moved
  /// with the memory layout). Three names in one set are rare. In memory of its own rather
  /// than an array of optional tuples: a hit was about sixty instructions, with the bounds
  /// checks and the optionals' tags, for every start tag.
  private let recent = UnsafeMutablePointer<Entry>.allocate(capacity: 512)

  init() { recent.initialize(repeating: Entry(), count: 512) }

  deinit { recent.deallocate() }

  /// The route of the element with these interned names (the prefix counts only without a URI:
  /// an undeclared prefix is read by its customary namespace).
  @inline(__always)
  func route(
    localname: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?,
    uri: UnsafePointer<UInt8>?
  ) -> FieldRoute {
    let key = ElementKey(
      localname: UnsafeRawPointer(localname), uri: uri.map(UnsafeRawPointer.init),
      prefix: uri == nil ? prefix.map(UnsafeRawPointer.init) : nil)
    let set = recent + key.set &* 2
    if set[0].holds(key) { return set[0].route }
    if set[1].holds(key) { return set[1].route }
    return miss(key, set: set, prefix: prefix)
  }

  private func miss(
    _ key: ElementKey, set: UnsafeMutablePointer<Entry>, prefix: UnsafePointer<UInt8>?
  ) -> FieldRoute {
    // Classified again, not kept in a dictionary behind the sets as well: that dictionary,
    // grown from empty in every document and hashed with SipHash, was about 22,000
    // instructions a document, most of the cost of a small feed's misses (callgrind, a pull of
    // 1,000 one-item feeds); an element evicted from its set costs a classification, some
    // 500 instructions.
    let uri = key.uri?.assumingMemoryBound(to: UInt8.self)
    let namespace = FeedNamespace.classify(
      uri: uri.map { String(cString: $0) }, prefix: prefix.map { String(cString: $0) })
    let route = FeedElementTable.route(
      namespace: namespace,
      localName: String(cString: key.localname.assumingMemoryBound(to: UInt8.self)))
    set[1] = set[0]
    set[0] = Entry(localname: key.localname, uri: key.uri, prefix: key.prefix, route: route)
    return route
  }
}
