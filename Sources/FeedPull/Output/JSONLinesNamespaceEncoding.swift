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
    channel.extensionFields.withUnsafeValue { fields in
      if let publisher = fields.pointee.publisher { person("publisher", publisher, to: &object) }
      people(fields.pointee.contributors, key: "contributors", to: &object)
      object.field("hubs", channel.hubs)
      if let schedule = channel.schedule { write(schedule, to: &object) }
      tags(fields.pointee.tags, to: &object)
      writeObjects(
        itunes: fields.pointer(to: \.itunes)!, podcast: fields.pointer(to: \.podcast)!,
        media: fields.pointee.media, geo: fields.pointee.geo, to: &object)
      if let youtube = fields.pointee.youtube { write(youtube, to: &object) }
      extensions(
        fields.pointee.extensions, truncated: fields.pointee.extensionsTruncated, to: &object)
    }
  }

  static func writeExtensionFields(_ item: FeedItem, to object: inout JSONLineBuffer) {
    guard !item.extensionFields.isBlank else {
      object.field("image", item.image)
      return
    }
    item.extensionFields.withUnsafeValue { writeItemFields($0, image: item.image, to: &object) }
  }

  /// `fields` by address: each read takes one field (see `OutOfLine.withUnsafeValue`). Read
  /// as a value, the fields were copied whole once for the call and the iTunes and podcast
  /// objects again for theirs: 126 of a podcast item's 644 reference-count operations.
  private static func writeItemFields(
    _ fields: UnsafePointer<FeedItemExtensionFields>, image: String?,
    to object: inout JSONLineBuffer
  ) {
    people(fields.pointee.contributors, key: "contributors", to: &object)
    object.field("rights", fields.pointee.rights)
    object.field("image", image)
    if let origin = fields.pointee.origin {
      object.object("origin") { object in
        object.field("title", origin.title)
        object.field("url", origin.url)
      }
    }
    object.field("comments_feed", fields.pointee.commentsFeed)
    object.field("comments_count", fields.pointee.commentsCount)
    object.objects("in_reply_to", fields.pointee.inReplyTo) { object, reply in
      object.field("ref", reply.ref)
      object.field("href", reply.href)
      object.field("type", reply.type)
    }
    tags(fields.pointee.tags, to: &object)
    writeObjects(
      itunes: fields.pointer(to: \.itunes)!, podcast: fields.pointer(to: \.podcast)!,
      media: fields.pointee.media, geo: fields.pointee.geo, to: &object)
    if let chapters = fields.pointee.chapters {
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
    if let youtube = fields.pointee.youtube { write(youtube, to: &object) }
    extensions(
      fields.pointee.extensions, truncated: fields.pointee.extensionsTruncated, to: &object)
  }

  /// The objects the channel and an item both have, in the output's order; the iTunes and
  /// podcast objects read in place (`inPlace`).
  @inline(__always)
  private static func writeObjects(
    itunes: UnsafePointer<ITunesInfo?>, podcast: UnsafePointer<PodcastInfo?>, media: MediaInfo?,
    geo: GeoGeometry?, to object: inout JSONLineBuffer
  ) {
    if case .some = itunes.pointee { inPlace(itunes) { write($0, to: &object) } }
    if case .some = podcast.pointee { inPlace(podcast) { write($0, to: &object) } }
    if let media { write(media, to: &object) }
    if let geo { write(geo, to: &object) }
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

  /// `itunes` by address (see `writeItemFields`): each read copies one field.
  private static func write(_ itunes: UnsafePointer<ITunesInfo>, to object: inout JSONLineBuffer) {
    object.object("itunes") { object in
      object.field("author", itunes.pointee.author)
      if let owner = itunes.pointee.owner {
        object.object("owner") { object in
          object.field("name", owner.name)
          object.field("email", owner.email)
        }
      }
      object.field("image", itunes.pointee.image)
      object.field("explicit", itunes.pointee.explicit)
      object.field("block", itunes.pointee.block)
      object.field("complete", itunes.pointee.complete)
      object.field("type", itunes.pointee.type)
      object.field("new_feed_url", itunes.pointee.newFeedURL)
      object.field("categories", itunes.pointee.categories)
      object.field("keywords", itunes.pointee.keywords)
      object.field("title", itunes.pointee.title)
      object.field("subtitle", itunes.pointee.subtitle)
      object.field("summary", itunes.pointee.summary)
      object.field("duration", itunes.pointee.duration)
      object.field("duration_raw", itunes.pointee.durationRaw)
      object.field("episode", itunes.pointee.episode)
      object.field("season", itunes.pointee.season)
      object.field("episode_type", itunes.pointee.episodeType)
      object.field("order", itunes.pointee.order)
      object.field("closed_captioned", itunes.pointee.closedCaptioned)
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

  /// The address of the value `optional` holds (it holds one), for reading its fields where they
  /// lie: through `pointee!` every field read tested the optional again, through an outlined
  /// function (27,000 calls for each of the iTunes and podcast objects in a 5 MB podcast feed).
  /// The force-unwrapped access projects the value in place and writes nothing (an optional of
  /// these types keeps no tag of its own: its empty case is a value the strings cannot hold).
  @inline(__always)
  static func inPlace<Value>(
    _ optional: UnsafePointer<Value?>, _ body: (UnsafePointer<Value>) -> Void
  ) {
    withUnsafeMutablePointer(to: &UnsafeMutablePointer(mutating: optional).pointee!) {
      body(UnsafePointer($0))
    }
  }
}
