/// What a complete record takes from its namespaced objects when the core element is absent,
/// as feedparser does: itunes:summary (else itunes:subtitle) as the description or summary,
/// media:title and media:description as an item's title and summary, itunes:image as the
/// feed's image, itunes:owner as its publisher; and the item's own `image`. itunes:title also
/// stands in for a missing title: an iTunes-only channel (Apple's directory accepts one) would
/// otherwise have none.
enum NamespaceFallbacks {
  static func complete(_ channel: inout FeedChannel) {
    if channel.schedule?.isEmpty == true { channel.schedule = nil }
    guard !channel.extensionFields.isBlank else { return }
    if let itunes = channel.itunes {
      if channel.title == nil, let title = itunes.title {
        channel.title = title
        channel.titleType = "text/plain"
      }
      if channel.description == nil { channel.description = itunes.summary ?? itunes.subtitle }
      if channel.image == nil { channel.image = itunes.image }
      if channel.publisher == nil, let owner = itunes.owner { channel.publisher = owner }
    }
    if let media = channel.media {
      if channel.title == nil, let title = media.title {
        channel.title = title
        channel.titleType = media.titleType ?? "text/plain"
      }
      if channel.description == nil { channel.description = media.description }
    }
  }

  /// `fields` is only read; it is `inout` because the caller's fields are a class's stored
  /// property, which Swift copies whole (every string and array retained, then released) to
  /// pass by value, once for every item of a podcast feed.
  static func complete(_ item: inout FeedItem, with fields: inout FeedItemExtensionFields) {
    // Field by field: binding the iTunes or media object (`if let`) copied it whole.
    if case .some = fields.itunes {
      if item.title == nil, let title = fields.itunes?.title {
        item.title = title
        item.titleType = "text/plain"
      }
      if item.summaryUTF8 == nil, let text = fields.itunes?.summary ?? fields.itunes?.subtitle {
        item.summary = text
        item.summaryType = "text/plain"
      }
    }
    if case .some = fields.media {
      if item.title == nil, let title = fields.media?.title {
        item.title = title
        item.titleType = fields.media?.titleType ?? "text/plain"
      }
      if item.summaryUTF8 == nil, let description = fields.media?.description {
        item.summary = description
        item.summaryType = fields.media?.descriptionType ?? "text/plain"
      }
    }
    if let image = fields.itunes?.image ?? fields.media?.thumbnails.first?.url {
      item.image = image
    }
  }
}
