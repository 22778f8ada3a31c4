import FeedParser
import HTTPWorker

/// What feedpull reports for one source, in this order: at most one `feed`, its `item`s in
/// document order, exactly one `end` (`../shared/CONTRACT.md`).
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
}

/// One item, written the moment its end tag is parsed.
public struct ItemRecord: Sendable, Equatable {
  public var source: String
  public var item: FeedItem
  /// With subscription state: whether the item is new, changed, or already delivered before;
  /// nil for a pull without state, which knows nothing of earlier pulls.
  public var status: ItemStatus? = nil
}

/// An item's standing against what earlier pulls of its source delivered.
public enum ItemStatus: String, Sendable {
  case new, updated, seen
}

/// Why a source did not end `ok`: the contract's error kinds.
public struct PullError: Error, Sendable, Equatable {
  public enum Kind: String, Sendable {
    case http, network, dns, timeout, tls
    case tooLarge = "too_large"
    case redirects
    case `protocol`
    case io, xml
    case notAFeed = "not_a_feed"
    case cancelled
    /// Not requested: the host asked to wait (Retry-After) or the source is gone (410).
    case deferred
  }
  public var kind: Kind
  public var message: String
  /// For `http`, `redirects`, `protocol`: the last status received.
  public var status: Int?
  public init(kind: Kind, message: String, status: Int? = nil) {
    self.kind = kind
    self.message = message
    self.status = status
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
  public var error: PullError?
  /// Subscription fields, set only when the pull keeps state between runs: what was new and
  /// changed, when to look again and why, and where the source has moved for good.
  public var newItems: Int?
  public var updatedItems: Int?
  /// Seconds since 1970 (UTC).
  public var nextCheckAt: Int64?
  public var nextCheckReason: String?
  public var errorsInRow: Int?
  public var movedTo: String?
  /// A hash of the body's bytes, computed only for a source that asked for it
  /// (`PullSource.wantsBodyDigest`), so that a subscriber can tell "the same bytes as last
  /// time" without validators. Not written in the output.
  public var bodyDigest: UInt64?
  /// `Cache-Control: max-age` and `Expires` (seconds from the response), for a scheduler; not
  /// written in the output.
  public var cacheMaxAge: Int?
  public var expiresAfter: Int?
  /// The channel's own word on how often it changes, for a scheduler; not written.
  public var feedSchedule: FeedSchedule?
  public var ok: Bool { error == nil }

  public init(source: String) { self.source = source }
}

extension PullError {
  init(_ error: TransferError) {
    self.init(
      kind: Kind(rawValue: error.kind.rawValue) ?? .network, message: error.message,
      status: error.status)
  }

  init(_ failure: FeedParseFailure) {
    self.init(kind: failure.kind == .xml ? .xml : .notAFeed, message: failure.message)
  }
}
