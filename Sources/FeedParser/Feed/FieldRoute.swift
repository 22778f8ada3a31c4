/// Where an element's meaning is read: a core field (`FeedElement`), the reader of one
/// namespace, or `extensions` for an element that no row names. The table maps (namespace,
/// local name) to a route; each namespace's reader lives in a file of its own.
enum FieldRoute: Equatable {
  case core(FeedElement)
  case itunes(ITunesElement)
  case podcast(PodcastElement)
  case media(MediaElement)
  case geo(GeoElement)
  case chapters(ChapterElement)
  case schedule(ScheduleElement)
  case youtube(YouTubeElement)
  /// Kept in `extensions` as the feed gave it.
  case unmapped
}

/// What a namespaced element wants once it has started.
enum FieldStart {
  /// Its text, as the value of the field (with the MIME type its attributes name, if any).
  case text(type: String?)
  /// Nothing of its own: its children are read as fields (`media:group`, `itunes:owner`).
  case children
  /// Nothing: its subtree is skipped.
  case ignore
}

/// The record a namespace reader writes into: the channel or the current item's draft. The readers
/// are generic over it so that they do not know the builder, and each is written once for
/// both levels.
protocol NamespacedRecord {
  var itunes: ITunesInfo? { get set }
  var podcast: PodcastInfo? { get set }
  var media: MediaInfo? { get set }
  var geo: GeoGeometry? { get set }
  var youtube: YouTubeInfo? { get set }
  var categories: [String] { get set }
  var tags: [FeedTag] { get set }
  var extensions: FeedExtensions { get set }
  var extensionsTruncated: Bool { get set }
  /// Podlove chapters: items only (a channel drops them).
  var podloveChapters: PodloveChapters? { get set }
  var schedule: FeedSchedule? { get set }
}

extension FeedChannel: NamespacedRecord {
  var podloveChapters: PodloveChapters? {
    get { nil }
    set {}
  }
}

extension NamespacedRecord {
  /// A category with a scheme or label. `categories` keeps the plain terms of the core
  /// elements; `tags` is kept only once one category has a scheme or label, and then holds
  /// every category, each (term, scheme, label) once, in document order. `index` is the
  /// record's `NamespaceScope.tagIndex`.
  mutating func addCategory(
    _ term: String, scheme: String?, label: String?, isCore: Bool,
    index: inout Set<ExactKey<FeedTag>>?
  ) {
    let term = term.trimmingSpaces()
    guard !term.isEmpty else { return }
    // Most categories of most feeds: a plain term while no tag has been kept.
    if isCore && scheme == nil && label == nil && tags.isEmpty {
      // Room for four at the first: an item has a few, and one at a time the list was
      // allocated three times for three.
      if categories.isEmpty { categories.reserveCapacity(4) }
      categories.append(term)
      return
    }
    let scheme = scheme.flatMap(Self.nonEmpty)
    let label = label.flatMap(Self.nonEmpty)
    if tags.isEmpty {
      if scheme == nil && label == nil {
        if isCore { categories.append(term) }
        return
      }
      Self.addPlainTags(categories, to: &tags, index: &index)
    }
    if isCore { categories.append(term) }
    DistinctList.append(FeedTag(term: term, scheme: scheme, label: label), to: &tags, index: &index)
  }

  /// `addCategory` for terms that share one scheme and no label (iTunes keywords), with the
  /// tag list reached once rather than once a term. `terms` are trimmed and not empty.
  mutating func addTags(_ terms: [String], scheme: String, index: inout Set<ExactKey<FeedTag>>?) {
    guard !terms.isEmpty else { return }
    let plain = tags.isEmpty ? categories : []
    Self.addTags(terms, scheme: scheme, after: plain, to: &tags, index: &index)
  }

  private static func addTags(
    _ terms: [String], scheme: String, after plain: [String], to tags: inout [FeedTag],
    index: inout Set<ExactKey<FeedTag>>?
  ) {
    // Room for all at the first only: reserved to the exact count at every call, the list was
    // copied whole once for every `itunes:keywords` element (40,000 of them took 0.6 s, 80,000
    // 1.9 s).
    if tags.isEmpty { tags.reserveCapacity(plain.count + terms.count) }
    addPlainTags(plain, to: &tags, index: &index)
    for term in terms {
      DistinctList.append(FeedTag(term: term, scheme: scheme), to: &tags, index: &index)
    }
  }

  /// The plain categories read before the first tag, as tags: once one category has a scheme
  /// or label, `tags` holds them all.
  private static func addPlainTags(
    _ plain: [String], to tags: inout [FeedTag], index: inout Set<ExactKey<FeedTag>>?
  ) {
    for term in plain { DistinctList.append(FeedTag(term: term), to: &tags, index: &index) }
  }

  static func nonEmpty(_ text: String) -> String? {
    let trimmed = text.trimmingSpaces()
    return trimmed.isEmpty ? nil : trimmed
  }

  /// `body` on the record's iTunes object, made when first needed.
  mutating func withITunes(_ body: (inout ITunesInfo) -> Void) {
    Self.modify(&itunes, made: ITunesInfo.init, body)
  }

  mutating func withPodcast(_ body: (inout PodcastInfo) -> Void) {
    Self.modify(&podcast, made: PodcastInfo.init, body)
  }

  mutating func withMedia(_ body: (inout MediaInfo) -> Void) {
    Self.modify(&media, made: MediaInfo.init, body)
  }

  /// In place: `value` is the record's own storage (see `Boxed`), never a copy.
  private static func modify<Value>(
    _ value: inout Value?, made: () -> Value, _ body: (inout Value) -> Void
  ) {
    // `case .none`, not `== nil`: the comparison copied the object (every string retained)
    // on each element of a podcast item.
    if case .none = value { value = made() }
    body(&value!)
  }

  mutating func withSchedule(_ body: (inout FeedSchedule) -> Void) {
    var value = schedule ?? FeedSchedule()
    body(&value)
    schedule = value
  }
}
