/// The record a namespace's reader writes into: the channel, or the item being read, in its
/// storage. The two tables share the namespaced rows (`itunes`, `podcast`, `media`, `geo`,
/// `youtube`, `tags`, `categories`, `extensions`) at different places; this finds them, so that
/// each reader is written once for both levels and never sees the builder.
struct NamespacedRecord {
  let storage: RecordStorage
  let isItem: Bool

  private var item: Block<ItemFields> { .root }
  private var channel: Block<ChannelFields> { .root }

  /// The record's `itunes` object, made when first needed.
  @inline(__always)
  func itunes() -> Block<ITunesFields> {
    isItem ? storage.object(item, \.itunes) : storage.object(channel, \.itunes)
  }

  /// The record's `podcast` object, made when first needed.
  @inline(__always)
  func podcast() -> Block<PodcastFields> {
    isItem ? storage.object(item, \.podcast) : storage.object(channel, \.podcast)
  }

  /// The record's `media` object, made when first needed.
  @inline(__always)
  func media() -> Block<MediaFields> {
    isItem ? storage.object(item, \.media) : storage.object(channel, \.media)
  }

  /// The record's `youtube` object, made when first needed.
  @inline(__always)
  func youtube() -> Block<YouTubeFields> {
    isItem ? storage.object(item, \.youtube) : storage.object(channel, \.youtube)
  }

  /// The channel's `schedule` object, made when first needed; nil for an item.
  func schedule() -> Block<ScheduleFields>? {
    isItem ? nil : storage.object(channel, \.schedule)
  }

  /// Empties the channel's `schedule` when nothing in it is set: a feed whose schedule
  /// elements said nothing readable has none.
  func dropScheduleIfEmpty() {
    guard !isItem, let schedule = storage.existing(channel, \.schedule) else { return }
    if (0..<ScheduleFields.fieldCount).allSatisfy({ storage[schedule.index + $0].kind == .empty }) {
      storage.clear(channel, \.schedule)
    }
  }

  /// The item's inline chapters; nil for the channel, which has none.
  var chaptersSlot: Int? { isItem ? item.slot(\.chapters) : nil }

  /// The slot of the record's plain categories (a list of texts).
  var categoriesSlot: Int { isItem ? item.slot(\.categories) : channel.slot(\.categories) }

  /// The slot of the record's tags (a list of `TagFields` objects).
  var tagsSlot: Int { isItem ? item.slot(\.tags) : channel.slot(\.tags) }

  /// The slot of the record's GeoJSON geometry.
  var geoSlot: Int { isItem ? item.slot(\.geo) : channel.slot(\.geo) }

  /// The slot of the record's extension elements.
  var extensionsSlot: Int { isItem ? item.slot(\.extensions) : channel.slot(\.extensions) }

  /// The slot of the record's `extensions_truncated` flag.
  var extensionsTruncatedSlot: Int {
    isItem ? item.slot(\.extensionsTruncated) : channel.slot(\.extensionsTruncated)
  }

  /// The record's geometry, nil when it has none.
  var geo: GeoGeometry? { storage.box(at: geoSlot, as: GeoGeometry.self) }

  /// Sets the record's geometry.
  func setGeo(_ geometry: GeoGeometry) { storage.setBox(geometry, at: geoSlot) }
}

/// Categories and tags, which core elements and namespaces (Media RSS, iTunes) both add to.
extension NamespacedRecord {
  /// A category with a scheme or label. `categories` keeps the plain terms of the core
  /// elements; `tags` is kept only once one category has a scheme or label, and then holds
  /// every category, each (term, scheme, label) once, in document order. `index` is the
  /// record's `NamespaceScope.tagIndex`.
  func addCategory(
    _ term: UnsafeBufferPointer<UInt8>, scheme: UnsafeBufferPointer<UInt8>?,
    label: UnsafeBufferPointer<UInt8>?, isCore: Bool, index: inout DistinctIndex?
  ) {
    let term = term.trimmedOfXMLSpace
    guard !term.isEmpty else { return }
    let scheme = scheme?.trimmedOfXMLSpace.nilIfEmpty
    let label = label?.trimmedOfXMLSpace.nilIfEmpty
    let hasTags = storage.listCount(at: tagsSlot) > 0
    if !hasTags {
      // Most categories of most feeds: a plain term while no tag has been kept.
      if scheme == nil && label == nil {
        if isCore { appendCategory(term) }
        return
      }
      addPlainTags(index: &index)
    }
    if isCore { appendCategory(term) }
    DistinctList.appendTag(
      term: term, scheme: scheme, label: label, toListAt: tagsSlot, in: storage, index: &index)
  }

  /// `addCategory` for terms that share one scheme and no label (iTunes keywords), each
  /// trimmed and not empty.
  func addTags(
    _ terms: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>, scheme: UnsafeBufferPointer<UInt8>,
    index: inout DistinctIndex?
  ) {
    guard !terms.isEmpty else { return }
    if storage.listCount(at: tagsSlot) == 0 { addPlainTags(index: &index) }
    for term in terms {
      DistinctList.appendTag(
        term: term, scheme: scheme, label: nil, toListAt: tagsSlot, in: storage, index: &index)
    }
  }

  private func appendCategory(_ term: UnsafeBufferPointer<UInt8>) {
    storage.setText(term, at: storage.appendEntry(toListAt: categoriesSlot))
  }

  /// The plain categories read before the first tag, as tags: once one category has a scheme
  /// or label, `tags` holds them all.
  private func addPlainTags(index: inout DistinctIndex?) {
    storage.forEachValue(ofListAt: categoriesSlot) { value in
      // The term is this storage's bytes: appending it as a tag copies it before anything
      // else can move them (`RecordStorage.setText`).
      if let term = storage.text(at: value) {
        DistinctList.appendTag(
          term: term, scheme: nil, label: nil, toListAt: tagsSlot, in: storage, index: &index)
      }
      return true
    }
  }
}

extension UnsafeBufferPointer where Element == UInt8 {
  /// Nil for no bytes.
  @inline(__always)
  var nilIfEmpty: UnsafeBufferPointer<UInt8>? { isEmpty ? nil : self }
}

extension StaticString {
  /// The literal's UTF-8 (literals are stored as UTF-8 in the binary).
  @inline(__always)
  var bytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount)
  }
}
