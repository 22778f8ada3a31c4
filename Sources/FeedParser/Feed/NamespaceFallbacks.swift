/// What a complete record takes from its namespaced objects when the core element is absent,
/// as feedparser does: itunes:summary (else itunes:subtitle) as the description or summary,
/// media:title and media:description as an item's title and summary, itunes:image as the
/// feed's image, itunes:owner as its publisher; and the item's own `image`. itunes:title also
/// stands in for a missing title: an iTunes-only channel (Apple's directory accepts one) would
/// otherwise have none. Values are copied slot to slot: the texts are shared, not copied.
enum NamespaceFallbacks {
  static func complete(channelIn storage: RecordStorage) {
    let channel = Block<ChannelFields>.root
    NamespacedRecord(storage: storage, isItem: false).dropScheduleIfEmpty()
    if let itunes = storage.existing(channel, \.itunes) {
      if !storage.has(channel, \.title), storage.has(itunes, \.title) {
        storage.copy(itunes, \.title, to: channel, \.title)
        storage.setText(channel, \.titleType, "text/plain")
      }
      if !storage.has(channel, \.description) {
        // By slot: a key path chosen at run time is built by the runtime at each use.
        let source =
          storage.has(itunes, \.summary) ? itunes.slot(\.summary) : itunes.slot(\.subtitle)
        storage.copyValue(from: storage, at: source, to: channel.slot(\.description))
      }
      if !storage.has(channel, \.image) { storage.copy(itunes, \.image, to: channel, \.image) }
      if !storage.has(channel, \.publisher), let owner = storage.existing(itunes, \.owner) {
        let publisher = storage.object(channel, \.publisher)
        storage.copy(owner, \.name, to: publisher, \.name)
        storage.copy(owner, \.email, to: publisher, \.email)
      }
    }
    if let media = storage.existing(channel, \.media) {
      if !storage.has(channel, \.title), storage.has(media, \.title) {
        storage.copy(media, \.title, to: channel, \.title)
        setType(media, \.titleType, to: channel.slot(\.titleType), in: storage)
      }
      if !storage.has(channel, \.description) {
        storage.copy(media, \.description, to: channel, \.description)
      }
    }
  }

  static func complete(itemIn storage: RecordStorage) {
    let item = Block<ItemFields>.root
    let itunes = storage.existing(item, \.itunes)
    let media = storage.existing(item, \.media)
    if let itunes {
      if !storage.has(item, \.title), storage.has(itunes, \.title) {
        storage.copy(itunes, \.title, to: item, \.title)
        storage.setText(item, \.titleType, "text/plain")
      }
      if !storage.has(item, \.summary),
        storage.has(itunes, \.summary) || storage.has(itunes, \.subtitle)
      {
        let source =
          storage.has(itunes, \.summary) ? itunes.slot(\.summary) : itunes.slot(\.subtitle)
        storage.copyValue(from: storage, at: source, to: item.slot(\.summary))
        storage.setText(item, \.summaryType, "text/plain")
      }
    }
    if let media {
      if !storage.has(item, \.title), storage.has(media, \.title) {
        storage.copy(media, \.title, to: item, \.title)
        setType(media, \.titleType, to: item.slot(\.titleType), in: storage)
      }
      if !storage.has(item, \.summary), storage.has(media, \.description) {
        storage.copy(media, \.description, to: item, \.summary)
        setType(media, \.descriptionType, to: item.slot(\.summaryType), in: storage)
      }
    }
    if let itunes, storage.has(itunes, \.image) {
      storage.copy(itunes, \.image, to: item, \.image)
    } else if let media, let thumbnail = firstThumbnail(media, storage),
      storage.has(thumbnail, \.url)
    {
      storage.copy(thumbnail, \.url, to: item, \.image)
    }
  }

  /// Media RSS's type for a text it fills in, `text/plain` when it names none.
  private static func setType(
    _ media: Block<MediaFields>, _ field: KeyPath<MediaFields, Field<String>>, to slot: Int,
    in storage: RecordStorage
  ) {
    if storage.has(media, field) {
      storage.copyValue(from: storage, at: media.slot(field), to: slot)
    } else {
      storage.setText("text/plain", at: slot)
    }
  }

  private static func firstThumbnail(_ media: Block<MediaFields>, _ storage: RecordStorage)
    -> Block<MediaFields.Thumbnail>?
  {
    var first: Block<MediaFields.Thumbnail>?
    storage.forEach(media, \.thumbnails) { thumbnail in
      first = thumbnail
      return false
    }
    return first
  }
}
