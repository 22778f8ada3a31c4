import FeedParser
import HTTPWorker

/// What feedpull reports for one source, in this order: at most one `feed`, its `item`s in
/// document order, exactly one `end` (docs/format.md).
public enum PullRecord: Sendable, Equatable {
  case feed(FeedRecord)
  case item(ItemRecord)
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

/// The channel, written before its first item or, with no items, before `end`.
public struct FeedRecord: Sendable, Equatable {
  public var source: String
  /// The final URL after redirects (a `file://` URL for a file).
  public var url: String?
  public var channel: FeedChannel
  public init(source: String, url: String? = nil, channel: FeedChannel) {
    self.source = source
    self.url = url
    self.channel = channel
  }
}

/// One item, written the moment its end tag is parsed.
public struct ItemRecord: Sendable, Equatable {
  public var source: String
  public var item: FeedItem
  public init(source: String, item: FeedItem) {
    self.source = source
    self.item = item
  }
}

/// How a source ended; the last record of every source.
public struct EndRecord: Sendable, Equatable {
  public var source: String
  public var url: String?
  /// The final HTTP status; nil for files and standard input.
  public var status: Int?
  public var items = 0
  /// Body bytes after decompression.
  public var bytes: Int64 = 0
  /// Nil when no body was parsed.
  public var wellformed: Bool?
  public var notModified = false
  public var permanentRedirect = false
  public var retryAfter: Int?
  public var etag: String?
  public var lastModified: String?
  public var contentType: String?
  public var encoding: String?
  public var elapsedMilliseconds: Int = 0
  /// The HTML page this source's feed was discovered on (its URL), when it was.
  public var discoveredFrom: String?
  /// The feeds an HTML page links, when the source was a page and no feed was pulled in its
  /// place (`--no-discover`, or none could be): what the user may subscribe to instead.
  public var feeds: [LinkedFeed] = []
  public var error: PullError?
  /// Every header of the final HTTP response, in order (`Cache-Control`, `Link`, …). For
  /// embedders only: JSON Lines does not carry them.
  public var responseHeaders: [HTTPHeader] = []
  public var ok: Bool { error == nil }

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
