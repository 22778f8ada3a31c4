import FeedParser
import HTTPWorker

/// What feedpull reports for one source, in this order: at most one `feed`, its `item`s in
/// document order, exactly one `end` (docs/format.md).
public enum PullRecord: Sendable, Equatable {
  /// The channel, before its first item.
  case feed(FeedRecord)
  /// One item, the moment it is parsed.
  case item(ItemRecord)
  /// The source's outcome; nothing of that source follows.
  case end(EndRecord)

  /// The source exactly as given, which every record carries.
  public var source: String {
    switch self {
    case .feed(let record): record.source
    case .item(let record): record.source
    case .end(let record): record.source
    }
  }
}

/// The channel, written before its first item or, with no items, before `end`. The channel's
/// fields read through the record: `record.title` is `record.channel.title`.
@dynamicMemberLookup
public struct FeedRecord: Sendable, Equatable {
  /// The SOURCE exactly as given, which every record of it carries.
  public var source: String
  /// The final URL after redirects (a `file://` URL for a file).
  public var url: String?
  /// The feed's own fields, as far as they are known before its first item.
  public var channel: FeedChannel
  /// A `feed` record for `source`; `url` nil for standard input.
  public init(source: String, url: String? = nil, channel: FeedChannel) {
    self.source = source
    self.url = url
    self.channel = channel
  }

  /// A field of the channel.
  public subscript<Value>(dynamicMember field: KeyPath<FeedChannel, Value>) -> Value {
    channel[keyPath: field]
  }
}

/// One item, written the moment its end tag is parsed. The item's fields read through the
/// record: `record.title` is `record.item.title`.
@dynamicMemberLookup
public struct ItemRecord: Sendable, Equatable {
  /// The SOURCE exactly as given, which every record of it carries.
  public var source: String
  /// The item, complete: its end tag has been parsed.
  public var item: FeedItem
  /// With subscription state: whether the item is new, changed, or already delivered before;
  /// nil for a pull without state, which knows nothing of earlier pulls.
  public var status: ItemStatus? = nil
  /// An `item` record; `status` only with subscription state.
  public init(source: String, item: FeedItem, status: ItemStatus? = nil) {
    self.source = source
    self.item = item
    self.status = status
  }

  /// A field of the item.
  public subscript<Value>(dynamicMember field: KeyPath<FeedItem, Value>) -> Value {
    item[keyPath: field]
  }
}

/// An item's standing against what earlier pulls of its source delivered.
public enum ItemStatus: String, Sendable {
  /// `new`: never delivered for this source; `updated`: delivered before, and its title, link,
  /// summary, content or enclosures changed since; `seen`: unchanged (written only with `--all`).
  case new, updated, seen
}

/// How a source ended; the last record of every source.
public struct EndRecord: Sendable, Equatable {
  /// The SOURCE exactly as given, which every record of it carries.
  public var source: String
  /// The final URL after redirects (a `file://` URL for a file); nil before any response.
  public var url: String?
  /// The final HTTP status; nil for files and standard input.
  public var status: Int?
  /// Items written for this source (with state: only the new and updated ones).
  public var items = 0
  /// Body bytes after decompression.
  public var bytes: Int64 = 0
  /// Nil when no body was parsed.
  public var wellformed: Bool?
  /// True on HTTP 304, or with state a body byte-for-byte the last one: `ok`, no items.
  public var notModified = false
  /// True when every redirect hop was 301 or 308: a subscriber may move to `url`.
  public var permanentRedirect = false
  /// Seconds the server asked to wait, from a 429 or 503 `Retry-After`.
  public var retryAfter: Int?
  /// The `ETag` header exactly (quotes included), for the next conditional request.
  public var etag: String?
  /// The `Last-Modified` header, for the next conditional request.
  public var lastModified: String?
  /// The `Content-Type` header as the server sent it.
  public var contentType: String?
  /// The character encoding the document was decoded from (`utf-8`, `shift_jis`).
  public var encoding: String?
  /// Time from the start of the source to its end.
  public var elapsedMilliseconds: Int = 0
  /// The HTML page this source's feed was discovered on (its URL), when it was.
  public var discoveredFrom: String?
  /// The feeds an HTML page links, when the source was a page and no feed was pulled in its
  /// place (`--no-discover`, or none could be): what the user may subscribe to instead.
  public var feeds: [LinkedFeed] = []
  /// Why the source did not end `ok`; nil when it did.
  public var error: PullError?
  /// Every header of the final HTTP response, in order (`Cache-Control`, `Link`, …). For
  /// embedders only: JSON Lines does not carry them.
  public var responseHeaders: [HTTPHeader] = []
  /// Fields that only pulls with subscription state use, kept out of line (one pointer, nil
  /// for a plain pull), so that an `end` record per source stays small when thousands are held.
  private var extras: EndRecordExtras.Box?
  /// True when the source was read to its end (items before a failure are still written).
  public var ok: Bool { error == nil }

  private var extrasValue: EndRecordExtras { extras?.value ?? EndRecordExtras() }
  private mutating func setExtras(_ change: (inout EndRecordExtras) -> Void) {
    var value = extrasValue
    change(&value)
    // Fields added by a layer above are never the empty default: no comparison needed.
    extras =
      value.addedFields == nil && value == EndRecordExtras() ? nil : EndRecordExtras.Box(value)
  }

  /// Fields a layer above the pipeline adds to the record (the subscription layer's
  /// `new_items`, `next_check_at`, `skipped`, …), written after the pipeline's own; nil for a
  /// plain pull.
  public var addedFields: (any EndRecordFields)? {
    get { extras?.value.addedFields }
    set { setExtras { $0.addedFields = newValue } }
  }
  /// A hash of the body's bytes, computed only for a source that asked for it
  /// (`PullSource.wantsBodyDigest`), so that a subscriber can tell "the same bytes as last
  /// time" without validators. Not written in the output.
  public var bodyDigest: UInt64? {
    get { extras?.value.bodyDigest }
    set { setExtras { $0.bodyDigest = newValue } }
  }
  /// `Cache-Control: max-age` and `Expires` (seconds from the response), for a scheduler; not
  /// written in the output.
  public var cacheMaxAge: Int? {
    get { extras?.value.cacheMaxAge }
    set { setExtras { $0.cacheMaxAge = newValue } }
  }
  /// `Expires` as seconds from the response (never negative); not written in the output.
  public var expiresAfter: Int? {
    get { extras?.value.expiresAfter }
    set { setExtras { $0.expiresAfter = newValue } }
  }
  /// The channel's own word on how often it changes, for a scheduler; not written.
  public var feedSchedule: FeedSchedule? {
    get { extras?.value.feedSchedule }
    set { setExtras { $0.feedSchedule = newValue } }
  }

  /// An `end` record with nothing known yet (no error, so `ok`; no items, no bytes); the
  /// pipeline fills in the rest as the source ends.
  public init(source: String) { self.source = source }
}

extension PullError {
  init(_ error: TransferError) {
    self.init(
      kind: Kind(rawValue: error.kind.rawValue) ?? .network, message: error.message,
      status: error.status, curlCode: error.curlCode)
  }

  init(_ failure: FeedParseFailure) {
    self.init(kind: failure.kind == .xml ? .xml : .notAFeed, message: failure.message)
  }
}

/// The out-of-line part of an `EndRecord`.
struct EndRecordExtras: Sendable, Equatable {
  static func == (left: EndRecordExtras, right: EndRecordExtras) -> Bool {
    let sameAdded =
      switch (left.addedFields, right.addedFields) {
      case (nil, nil): true
      case (let left?, let right?): left.isEqual(to: right)
      default: false
      }
    return sameAdded && left.bodyDigest == right.bodyDigest
      && left.cacheMaxAge == right.cacheMaxAge && left.expiresAfter == right.expiresAfter
      && left.feedSchedule == right.feedSchedule
  }

  var addedFields: (any EndRecordFields)?
  var bodyDigest: UInt64?
  var cacheMaxAge: Int?
  var expiresAfter: Int?
  var feedSchedule: FeedSchedule?

  /// Immutable, so copies of a record share it safely; a change makes a new box.
  final class Box: Sendable, Equatable {
    let value: EndRecordExtras
    init(_ value: EndRecordExtras) { self.value = value }
    static func == (left: Box, right: Box) -> Bool { left.value == right.value }
  }
}
