/// The item being read, with what decides its fields at its end.
struct ItemDraft {
  var item: FeedItem
  /// The fields of the extension section while the item is read, in a buffer that the builder
  /// reuses item after item: inline in the draft they made every move of the draft (several an
  /// item) copy half a kilobyte, which cost plain RSS feeds 3% (callgrind).
  let extrasBuffer: ItemExtrasBuffer
  let depth: Int
  var guid: String?
  var guidIsPermalink = true
  var iTunesAuthor: FeedPerson?

  init(index: Int, depth: Int, extrasBuffer: ItemExtrasBuffer) {
    item = FeedItem(index: index)
    self.depth = depth
    self.extrasBuffer = extrasBuffer
  }

  /// The extension fields being read, for the builder's own core rows (rights, origin, …).
  var extras: FeedItemExtensionFields {
    _read { yield extrasBuffer.fields }
    nonmutating _modify {
      extrasBuffer.touched = true
      yield &extrasBuffer.fields
    }
  }
}

/// An Atom `author` or `contributor` (name, email, uri children) or an RSS `author`
/// ("email (Name)" text).
struct PersonDraft {
  let depth: Int
  let isContributor: Bool
  var person = FeedPerson()
  var text: [UInt8] = []

  init(depth: Int, isContributor: Bool = false) {
    self.depth = depth
    self.isContributor = isContributor
  }
}

extension ItemDraft: NamespacedRecord {
  var categories: [String] {
    _read { yield item.categories }
    _modify { yield &item.categories }
  }
  var tags: [FeedTag] {
    _read { yield extras.tags }
    _modify { yield &extras.tags }
  }
  var itunes: ITunesInfo? {
    _read { yield extras.itunes }
    _modify { yield &extras.itunes }
  }
  var podcast: PodcastInfo? {
    _read { yield extras.podcast }
    _modify { yield &extras.podcast }
  }
  var media: MediaInfo? {
    _read { yield extras.media }
    _modify { yield &extras.media }
  }
  var geo: GeoGeometry? {
    _read { yield extras.geo }
    _modify { yield &extras.geo }
  }
  var youtube: YouTubeInfo? {
    _read { yield extras.youtube }
    _modify { yield &extras.youtube }
  }
  var extensions: FeedExtensions {
    _read { yield extras.extensions }
    _modify { yield &extras.extensions }
  }
  var extensionsTruncated: Bool {
    _read { yield extras.extensionsTruncated }
    _modify { yield &extras.extensionsTruncated }
  }
  var podloveChapters: PodloveChapters? {
    _read { yield extras.chapters }
    _modify { yield &extras.chapters }
  }
  var schedule: FeedSchedule? {
    get { nil }
    set {}
  }

  /// The item as handed over: the fallbacks applied, the extension fields moved out of line
  /// when there are any.
  mutating func finish() {
    guard extrasBuffer.touched else { return }
    NamespaceFallbacks.complete(&item, with: &extrasBuffer.fields)
    var fields = FeedItemExtensionFields()
    swap(&fields, &extrasBuffer.fields)
    extrasBuffer.touched = false
    item.extensionFields = OutOfLine(fields)
  }
}

/// Where an item's extension fields are read into, one per builder, reused item after item.
final class ItemExtrasBuffer {
  /// Touched only from the builder's thread, never with overlapping accesses.
  @exclusivity(unchecked) var fields = FeedItemExtensionFields()
  /// Set by every change: an item that no namespace touched skips the extension work.
  @exclusivity(unchecked) var touched = false
}
