/// What the namespace readers remember while one record (the channel or an item) is read:
/// the containers that are open (an `itunes:owner`, a `georss:where`, a `media:content` whose
/// children belong to it) and the bounds that count per record.
struct NamespaceScope {
  /// The base URL in effect at the element being read.
  var base: String?
  /// The builder's `baseGeneration` when `base` was set; -1 before it ever was.
  var baseGeneration = -1
  /// The depth of the element being read (the root is 1).
  var depth = 0
  let isItem: Bool

  var iTunesOwnerDepth: Int?
  /// The open `itunes:category` elements, outermost first.
  var iTunesCategoryPath: [(depth: Int, term: String)] = []
  /// The `media:content` whose children are read now.
  var mediaContentDepth: Int?
  var mediaCommunityDepth: Int?
  var podcastAlternateEnclosureDepth: Int?
  var podcastPodrollDepth: Int?
  /// The first `psc:chapters` of the record; later ones are skipped.
  var chaptersDepth: Int?
  var chaptersSeen = false
  var whereDepth: Int?
  var gml = GMLDraft()
  var w3cPoint = (latitude: Double?.none, longitude: Double?.none)
  var skipHoursDepth: Int?
  var skipDaysDepth: Int?
  /// Attributes of the element whose text is being read, for when its text is complete (text
  /// elements do not nest).
  var pendingAttributes: (String?, String?) = (nil, nil)
  /// Extension text kept so far in this record (bounded).
  var extensionBytes = 0
  /// The values of the record's lists that keep each value once, once a list is long
  /// (`DistinctList`): its tags, its iTunes keywords, its Media RSS keywords and categories,
  /// the channel's hubs.
  var tagIndex: DistinctIndex?
  var iTunesKeywordIndex: DistinctIndex?
  var mediaKeywordIndex: DistinctIndex?
  var mediaCategoryIndex: DistinctIndex?
  var hubIndex: DistinctIndex?
  /// An item's enclosures by the hash of their URL, once it has many.
  var enclosureIndex: DistinctIndex?

  init(isItem: Bool) { self.isItem = isItem }

  /// Empty again for the next item, each part changed only when it holds something: assigned a
  /// fresh scope, every part of the old one was destroyed through its type's metadata, a
  /// dozen calls an item whatever it held.
  mutating func reset() {
    if base != nil { base = nil }
    baseGeneration = -1
    depth = 0
    iTunesOwnerDepth = nil
    if !iTunesCategoryPath.isEmpty { iTunesCategoryPath = [] }
    mediaContentDepth = nil
    mediaCommunityDepth = nil
    podcastAlternateEnclosureDepth = nil
    podcastPodrollDepth = nil
    chaptersDepth = nil
    chaptersSeen = false
    whereDepth = nil
    if gml.kind != nil || !gml.positions.isEmpty || gml.lowerCorner != nil { gml = GMLDraft() }
    w3cPoint = (nil, nil)
    skipHoursDepth = nil
    skipDaysDepth = nil
    if pendingAttributes.0 != nil || pendingAttributes.1 != nil { pendingAttributes = (nil, nil) }
    extensionBytes = 0
    if tagIndex != nil { tagIndex = nil }
    if iTunesKeywordIndex != nil { iTunesKeywordIndex = nil }
    if mediaKeywordIndex != nil { mediaKeywordIndex = nil }
    if mediaCategoryIndex != nil { mediaCategoryIndex = nil }
    if hubIndex != nil { hubIndex = nil }
    if enclosureIndex != nil { enclosureIndex = nil }
  }

  /// `reference` resolved against the base in effect (an absolute http(s) URL is itself).
  func resolve(_ reference: String) -> String {
    Self.resolve(reference, against: base)
  }

  /// `resolve` for closures, which should capture the base rather than copy the whole scope.
  static func resolve(_ reference: String, against base: String?) -> String {
    var reference = reference
    let plain = reference.withUTF8 { URLBytes.isPlainHTTPURL($0) }
    return plain ? reference : URIResolver.resolve(reference, against: base)
  }

  /// The text trimmed, nil when that leaves nothing: what a reader keeps of an attribute it
  /// held as text until the element's end.
  static func nonEmpty(_ text: String) -> String? {
    let trimmed = text.trimmingSpaces()
    return trimmed.isEmpty ? nil : trimmed
  }

  /// The element at `depth` ended: close the containers it opened.
  mutating func endElement(depth: Int) {
    if iTunesOwnerDepth == depth { iTunesOwnerDepth = nil }
    if iTunesCategoryPath.last?.depth == depth { iTunesCategoryPath.removeLast() }
    if mediaContentDepth == depth { mediaContentDepth = nil }
    if mediaCommunityDepth == depth { mediaCommunityDepth = nil }
    if podcastAlternateEnclosureDepth == depth { podcastAlternateEnclosureDepth = nil }
    if podcastPodrollDepth == depth { podcastPodrollDepth = nil }
    if chaptersDepth == depth { chaptersDepth = nil }
    if whereDepth == depth { whereDepth = nil }
    if skipHoursDepth == depth { skipHoursDepth = nil }
    if skipDaysDepth == depth { skipDaysDepth = nil }
  }

  /// True while the element being read is inside any of these containers: the builder then
  /// sends even core-looking children (an `itunes:owner`'s `itunes:name`) to their readers.
  var hasOpenContainer: Bool {
    iTunesOwnerDepth != nil || mediaContentDepth != nil || chaptersDepth != nil
      || whereDepth != nil || skipHoursDepth != nil || skipDaysDepth != nil
  }
}

/// A GML geometry inside `georss:where`, read from its start tag and its position lists.
struct GMLDraft {
  var kind: GeoGeometry.Kind?
  /// True unless `srsName` names a system whose axes are not latitude, longitude.
  var latitudeFirst = true
  var dimension = 2
  var positions: [GeoGeometry.Position] = []
  var lowerCorner: GeoGeometry.Position?
}
