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

  static func complete(_ item: inout FeedItem, with fields: FeedItemExtensionFields) {
    if let itunes = fields.itunes {
      if item.title == nil, let title = itunes.title {
        item.title = title
        item.titleType = "text/plain"
      }
      if item.summaryUTF8 == nil, let text = itunes.summary ?? itunes.subtitle {
        item.summary = text
        item.summaryType = "text/plain"
      }
    }
    if let media = fields.media {
      if item.title == nil, let title = media.title {
        item.title = title
        item.titleType = media.titleType ?? "text/plain"
      }
      if item.summaryUTF8 == nil, let description = media.description {
        item.summary = description
        item.summaryType = media.descriptionType ?? "text/plain"
      }
    }
    if let image = fields.itunes?.image ?? fields.media?.thumbnails.first?.url {
      item.image = image
    }
  }
}
