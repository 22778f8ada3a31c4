import FeedParser

/// The newer fields of the output format (publisher, contributors, tags, origin, comments and
/// the namespaced objects: docs/namespaces.md), written after the core ones of each record.
/// Apart from the core encoder so that the hot path of a plain feed reads as before: a record
/// without any of them costs one test.
extension JSONLinesEncoding {
  static func writeExtensionFields(_ channel: FeedChannel, to object: inout JSONLineBuffer) {
    guard !channel.extensionFields.isBlank else {
      object.field("hubs", channel.hubs)
      if let schedule = channel.schedule { write(schedule, to: &object) }
      return
    }
    // One copy out of the record's storage, not one per field read.
    let fields = channel.extensionFields.value
    if let publisher = fields.publisher { person("publisher", publisher, to: &object) }
    people(fields.contributors, key: "contributors", to: &object)
    object.field("hubs", channel.hubs)
    if let schedule = channel.schedule { write(schedule, to: &object) }
    tags(fields.tags, to: &object)
    if let itunes = fields.itunes { write(itunes, to: &object) }
    if let podcast = fields.podcast { write(podcast, to: &object) }
    if let media = fields.media { write(media, to: &object) }
    if let geo = fields.geo { write(geo, to: &object) }
    if let youtube = fields.youtube { write(youtube, to: &object) }
    extensions(fields.extensions, truncated: fields.extensionsTruncated, to: &object)
  }

  static func writeExtensionFields(_ item: FeedItem, to object: inout JSONLineBuffer) {
    guard !item.extensionFields.isBlank else {
      object.field("image", item.image)
      return
    }
    writeItemFields(item.extensionFields.value, image: item.image, to: &object)
  }

  /// `fields` borrowed, so that writing the objects inside copies none of them. The call still
  /// copies `fields` once out of `OutOfLine.value`'s accessor (about 1% of a podcast feed's
  /// parse, docs/namespaces.md); reading each object through the accessor copied each again.
  private static func writeItemFields(
    _ fields: borrowing FeedItemExtensionFields, image: String?, to object: inout JSONLineBuffer
  ) {
    people(fields.contributors, key: "contributors", to: &object)
    object.field("rights", fields.rights)
    object.field("image", image)
    if let origin = fields.origin {
      object.object("origin") { object in
        object.field("title", origin.title)
        object.field("url", origin.url)
      }
    }
    object.field("comments_feed", fields.commentsFeed)
    object.field("comments_count", fields.commentsCount)
    object.objects("in_reply_to", fields.inReplyTo) { object, reply in
      object.field("ref", reply.ref)
      object.field("href", reply.href)
      object.field("type", reply.type)
    }
    tags(fields.tags, to: &object)
    if case .some = fields.itunes { write(fields.itunes.unsafelyUnwrapped, to: &object) }
    if case .some = fields.podcast { write(fields.podcast.unsafelyUnwrapped, to: &object) }
    if case .some = fields.media { write(fields.media.unsafelyUnwrapped, to: &object) }
    if case .some = fields.geo { write(fields.geo.unsafelyUnwrapped, to: &object) }
    if case .some = fields.chapters {
      let chapters = fields.chapters.unsafelyUnwrapped
      object.object("chapters") { object in
        object.field("version", chapters.version)
        object.objects("list", chapters.list) { object, chapter in
          object.field("start", chapter.start)
          object.field("title", chapter.title)
          object.field("href", chapter.href)
          object.field("image", chapter.image)
        }
      }
    }
    if case .some = fields.youtube { write(fields.youtube.unsafelyUnwrapped, to: &object) }
    extensions(fields.extensions, truncated: fields.extensionsTruncated, to: &object)
  }

  private static func person(
    _ key: StaticString, _ person: FeedPerson, to object: inout JSONLineBuffer
  ) {
    object.object(key) { object in
      object.field("name", person.name)
      object.field("email", person.email)
      object.field("uri", person.uri)
    }
  }

  private static func tags(_ tags: [FeedTag], to object: inout JSONLineBuffer) {
    object.objects("tags", tags) { object, tag in
      object.field("term", tag.term)
      object.field("scheme", tag.scheme)
      object.field("label", tag.label)
    }
  }

  private static func date(_ key: StaticString, _ date: FeedDate?, to object: inout JSONLineBuffer)
  {
    if case .instant(let seconds) = date { object.field(key, instant: seconds) }
  }

  private static func write(_ schedule: FeedSchedule, to object: inout JSONLineBuffer) {
    object.object("schedule") { object in
      object.field("ttl", schedule.ttl)
      if !schedule.skipHours.isEmpty {
        object.field(
          "skip_hours",
          raw: { buffer in
            buffer.appendArray(count: schedule.skipHours.count) {
              $0.appendNumber(Double(schedule.skipHours[$1]))
            }
          })
      }
      object.field("skip_days", schedule.skipDays)
      object.field("update_period", schedule.updatePeriod)
      object.field("update_frequency", schedule.updateFrequency)
      object.field("update_base", schedule.updateBase)
    }
  }

  private static func write(_ itunes: ITunesInfo, to object: inout JSONLineBuffer) {
    object.object("itunes") { object in
      object.field("author", itunes.author)
      if let owner = itunes.owner {
        object.object("owner") { object in
          object.field("name", owner.name)
          object.field("email", owner.email)
        }
      }
      object.field("image", itunes.image)
      object.field("explicit", itunes.explicit)
      object.field("block", itunes.block)
      object.field("complete", itunes.complete)
      object.field("type", itunes.type)
      object.field("new_feed_url", itunes.newFeedURL)
      object.field("categories", itunes.categories)
      object.field("keywords", itunes.keywords)
      object.field("title", itunes.title)
      object.field("subtitle", itunes.subtitle)
      object.field("summary", itunes.summary)
      object.field("duration", itunes.duration)
      object.field("duration_raw", itunes.durationRaw)
      object.field("episode", itunes.episode)
      object.field("season", itunes.season)
      object.field("episode_type", itunes.episodeType)
      object.field("order", itunes.order)
      object.field("closed_captioned", itunes.closedCaptioned)
    }
  }

  private static func write(_ geo: GeoGeometry, to object: inout JSONLineBuffer) {
    object.object("geo") { object in
      object.field("type", geo.kind.rawValue)
      object.field(
        "coordinates",
        raw: { buffer in
          func position(_ buffer: inout JSONLineBuffer, _ index: Int) {
            let position = geo.positions[index]
            buffer.appendArray(count: position.count) { $0.appendNumber(position[$1]) }
          }
          switch geo.kind {
          case .point:
            position(&buffer, 0)
          case .lineString, .box:
            buffer.appendArray(count: geo.positions.count, position)
          case .polygon:
            buffer.appendArray(count: 1) { buffer, _ in
              buffer.appendArray(count: geo.positions.count, position)
            }
          }
        })
    }
  }

  private static func write(_ youtube: YouTubeInfo, to object: inout JSONLineBuffer) {
    object.object("youtube") { object in
      object.field("video_id", youtube.videoID)
      object.field("channel_id", youtube.channelID)
    }
  }

  /// `extensions`: namespace URI → local name → [{value, attrs, children}].
  private static func extensions(
    _ extensions: FeedExtensions, truncated: Bool, to object: inout JSONLineBuffer
  ) {
    if !extensions.isEmpty {
      object.object("extensions") { extensionElements(extensions, to: &$0) }
    }
    object.flag("extensions_truncated", truncated)
  }

  private static func extensionElements(
    _ extensions: FeedExtensions, to object: inout JSONLineBuffer
  ) {
    for namespace in extensions.namespaces {
      object.object(key: namespace.uri) { object in
        for (name, values) in namespace.elements {
          object.objects(key: name, values) { object, element in
            object.field("value", element.value)
            if !element.attributes.isEmpty {
              object.object("attrs") { object in
                for attribute in element.attributes {
                  object.field(key: attribute.name, attribute.value)
                }
              }
            }
            if !element.children.isEmpty {
              object.object("children") { extensionElements(element.children, to: &$0) }
            }
          }
        }
      }
    }
  }
}
