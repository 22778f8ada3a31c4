import FeedParser
import HTTPWorker

/// Records as JSON Lines: one object a line, fields named and ordered as docs/format.md lists
/// them. The URLs of the pull itself (`source`, `url`, `discovered_from`, `moved_to`) are
/// written with their password masked (`user:***@`): records in memory keep them as given, so
/// that a caller can match them to its sources and the state can pull them again.
enum JSONLinesEncoding {
  /// Appends `record` and its newline to `buffer`.
  static func append(_ record: PullRecord, to buffer: inout JSONLineBuffer) {
    buffer.line { object in
      switch record {
      case .feed(let record): write(record, to: &object)
      case .item(let record): write(record, to: &object)
      case .end(let record): write(record, to: &object)
      }
    }
  }

  static func line(_ record: PullRecord) -> String {
    var buffer = JSONLineBuffer()
    append(record, to: &buffer)
    return String(decoding: buffer.bytes.array.dropLast(), as: UTF8.self)
  }

  private static func write(_ record: FeedRecord, to object: inout JSONLineBuffer) {
    let channel = record.channel
    object.field("type", "feed")
    object.field("source", URLPasswordMask.masked(record.source))
    object.field("url", record.url.map(URLPasswordMask.masked))
    object.field("version", channel.version.rawValue)
    object.field("id", channel.id)
    object.field("title", channel.title)
    if channel.title != nil { object.field("title_type", channel.titleType) }
    object.field("link", channel.link)
    object.field("self", channel.selfLink)
    object.field("description", channel.description)
    object.field("language", channel.language)
    date("updated", channel.updated, to: &object)
    date("published", channel.published, to: &object)
    object.field("generator", channel.generator)
    object.field("image", channel.image)
    object.field("icon", channel.icon)
    object.field("rights", channel.rights)
    people(channel.authors, to: &object)
    object.field("categories", channel.categories)
    writeExtensionFields(channel, to: &object)
    object.flag("expired", channel.expired)
  }

  private static func write(_ record: ItemRecord, to object: inout JSONLineBuffer) {
    let item = record.item
    object.field("type", "item")
    object.field("source", URLPasswordMask.masked(record.source))
    object.field("index", item.index)
    object.field("status", record.status?.rawValue)
    object.field("id", item.id)
    object.field("title", item.title)
    if item.title != nil { object.field("title_type", item.titleType) }
    object.field("link", item.link)
    object.objects("links", item.links) { object, link in
      object.field("href", link.href)
      object.field("rel", link.rel)
      object.field("type", link.type)
      object.field("title", link.title)
      object.field("length", link.length)
    }
    object.field("summary", utf8: item.summaryUTF8)
    if item.summaryUTF8 != nil { object.field("summary_type", item.summaryType) }
    object.field("content", utf8: item.contentUTF8)
    if item.contentUTF8 != nil { object.field("content_type", item.contentType) }
    date("published", item.published, to: &object)
    date("updated", item.updated, to: &object)
    people(item.authors, to: &object)
    object.field("categories", item.categories)
    object.objects("enclosures", item.enclosures) { object, enclosure in
      object.field("url", enclosure.url)
      object.field("type", enclosure.type)
      object.field("length", enclosure.length)
      object.field("title", enclosure.title)
      object.field("duration", number: enclosure.duration)
    }
    object.field("comments", item.comments)
    writeExtensionFields(item, to: &object)
    object.field("language", item.language)
  }

  private static func write(_ record: EndRecord, to object: inout JSONLineBuffer) {
    object.field("type", "end")
    object.field("source", URLPasswordMask.masked(record.source))
    object.field("url", record.url.map(URLPasswordMask.masked))
    object.field("ok", record.ok)
    object.field("status", record.status)
    object.field("items", record.items)
    object.field("bytes", record.bytes)
    object.field("wellformed", record.wellformed)
    object.flag("not_modified", record.notModified)
    object.flag("permanent_redirect", record.permanentRedirect)
    object.field("retry_after", record.retryAfter)
    object.field("etag", record.etag)
    object.field("last_modified", record.lastModified)
    object.field("content_type", record.contentType)
    object.field("encoding", record.encoding)
    object.field("elapsed_ms", record.elapsedMilliseconds)
    object.field("discovered_from", record.discoveredFrom.map(URLPasswordMask.masked))
    object.objects("feeds", record.feeds) { object, feed in
      object.field("url", URLPasswordMask.masked(feed.url))
      object.field("type", feed.type)
      object.field("title", feed.title)
    }
    if let added = record.addedFields {
      withUnsafeMutablePointer(to: &object) { pointer in
        var writer = EndRecordFieldWriter(pointer)
        added.write(to: &writer)
      }
    }
    if let error = record.error {
      object.object("error") { object in
        object.field("kind", error.kind.rawValue)
        object.field("message", error.message)
        object.field("status", error.status)
      }
    }
  }

  /// `published` as RFC 3339, or `published_raw` with the text when it could not be read.
  private static func date(
    _ key: StaticString, _ date: FeedDate?, to object: inout JSONLineBuffer
  ) {
    switch date {
    case .instant(let seconds): object.field(key, instant: seconds)
    case .raw(let text):
      switch key.description {
      case "published": object.field("published_raw", text)
      default: object.field("updated_raw", text)
      }
    case nil: break
    }
  }

  static func people(
    _ people: [FeedPerson], key: StaticString = "authors", to object: inout JSONLineBuffer
  ) {
    object.objects(key, people) { object, person in
      object.field("name", person.name)
      object.field("email", person.email)
      object.field("uri", person.uri)
    }
  }
}
