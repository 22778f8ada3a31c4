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
  var tagIndex: Set<ExactKey<FeedTag>>?
  var iTunesKeywordIndex: Set<ExactKey<String>>?
  var mediaKeywordIndex: Set<ExactKey<String>>?
  var mediaCategoryIndex: Set<ExactKey<FeedTag>>?
  var hubIndex: Set<ExactKey<String>>?
  /// The position of each of an item's enclosures by URL, once it has many.
  var enclosureIndex: [String: Int]?

  init(isItem: Bool) { self.isItem = isItem }

  func resolve(_ reference: String) -> String {
    Self.resolve(reference, against: base)
  }

  /// `resolve` for closures, which should capture the base rather than copy the whole scope.
  static func resolve(_ reference: String, against base: String?) -> String {
    // Nearly every URL of a podcast's namespaced elements is absolute: answer those without
    // the resolver's trimming and scanning (the same answer: an absolute reference is itself).
    if isPlainHTTPURL(reference) { return reference }
    return URIResolver.resolve(reference, against: base)
  }

  /// `http://` or `https://` in lower case, and no white space at either end.
  private static func isPlainHTTPURL(_ reference: String) -> Bool {
    // The contiguous view reads the string in place; `withUTF8` needs a copy (a retain).
    let plain = reference.utf8.withContiguousStorageIfAvailable { bytes in
      guard bytes.count > 8, let last = bytes.last, !last.isXMLSpace,
        bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"),
        bytes[2] == UInt8(ascii: "t"), bytes[3] == UInt8(ascii: "p")
      else { return false }
      let rest = bytes[4] == UInt8(ascii: "s") ? 5 : 4
      return bytes[rest] == UInt8(ascii: ":") && bytes[rest + 1] == UInt8(ascii: "/")
        && bytes[rest + 2] == UInt8(ascii: "/")
    }
    // Not contiguous (never for parsed text): the resolver gives the same answer.
    return plain ?? false
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
