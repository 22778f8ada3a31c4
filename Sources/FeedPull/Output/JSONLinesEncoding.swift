import FeedParser
import HTTPWorker

/// Records as JSON Lines: one object a line, fields named and ordered as docs/format.md lists
/// them. A `feed` and an `item` record write what the record adds (`type`, `source`, `url`,
/// `index`, `status`) and then their table's rows (`ChannelFields`, `ItemFields`) from the
/// record's storage; an `end` record is written field by field. The URLs of the pull itself
/// (`source`, `url`, `discovered_from`, `moved_to`) are written with their password masked
/// (`user:***@`): records in memory keep them as given, so that a caller can match them to its
/// sources and the state can pull them again.
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

  /// The tables, read once: looked up for every record, they were a lock and a hash each.
  private static let channelTable = RecordTable.of(ChannelFields.self)
  private static let itemTable = RecordTable.of(ItemFields.self)

  private static func write(_ record: FeedRecord, to object: inout JSONLineBuffer) {
    object.field("type", "feed")
    object.field("source", URLPasswordMask.masked(record.source))
    object.field("url", record.url.map(URLPasswordMask.masked))
    object.field("version", record.channel.version.rawValue)
    let storage = record.channel.storage
    withExtendedLifetime(storage) { object.writeRows(channelTable, of: storage, block: 0) }
  }

  private static func write(_ record: ItemRecord, to object: inout JSONLineBuffer) {
    object.field("type", "item")
    object.field("source", URLPasswordMask.masked(record.source))
    object.field("index", record.item.index)
    object.field("status", record.status?.rawValue)
    let storage = record.item.storage
    withExtendedLifetime(storage) { object.writeRows(itemTable, of: storage, block: 0) }
  }

  /// Appends end number `index` of `ends` and its newline to `buffer`: the bytes of
  /// `.end(ends.record(at: index))`, written from the name and the added fields without making
  /// the record's out-of-line part or boxing the fields.
  static func append(
    _ ends: some UnpulledEndBatch, at index: Int, to buffer: inout JSONLineBuffer
  ) {
    buffer.line { object in
      // The pipeline's fields of an end not pulled are those of an empty record: the bytes the
      // same code as any end's wrote once, around the source (`UnpulledEndTemplate`).
      let source = ends.source(at: index)
      if source.isEmpty {
        writePipelineFields(EndRecord(source: source), to: &object)
      } else {
        let template = unpulledEnd
        object.appendFragment(template.beforeSource)
        object.appendString(URLPasswordMask.masked(source))
        object.appendFragment(template.afterSource)
      }
      withUnsafeMutablePointer(to: &object) { pointer in
        var writer = EndRecordFieldWriter(pointer)
        ends.writeAddedFields(at: index, to: &writer)
      }
      // No `error`: an unpulled end is `ok`.
    }
  }

  /// The pipeline's fields of an end not pulled, as `writePipelineFields` writes them for
  /// `EndRecord(source:)`, split around the source's quoted value: a `--due -i` pass over a
  /// million names writes 999,000 such ends, and writing their sixteen fields one by one (most
  /// of them left out) was about 1,400 instructions an end, the template's copies about 100
  /// (callgrind). Made by that same code, so the two cannot drift apart.
  private static let unpulledEnd = UnpulledEndTemplate { source, object in
    writePipelineFields(EndRecord(source: source), to: &object)
  }

  private static func write(_ record: EndRecord, to object: inout JSONLineBuffer) {
    writePipelineFields(record, to: &object)
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

  /// An `end`'s fields up to those a layer above adds.
  private static func writePipelineFields(_ record: EndRecord, to object: inout JSONLineBuffer) {
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
  }
}
