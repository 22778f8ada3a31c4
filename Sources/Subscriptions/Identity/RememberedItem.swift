/// One item a source has delivered, as the state remembers it: its keys (hashes, so a row
/// stays small whatever the feed's URLs), when it was last in the feed, and whether it has
/// dropped out of the feed's window (`gone`: a tombstone, kept so that an item that reappears
/// is not new again).
public struct RememberedItem: Sendable, Equatable, Codable {
  /// The row's key within its source: the item's primary key when it was first seen.
  public var key: Int64
  /// Hash of the item's id (guid, Atom id, JSON Feed id); nil when the item had none.
  public var idKey: Int64?
  /// Hash of the item's link; nil when it had none.
  public var linkKey: Int64?
  /// Hash of its title, date and content: the key of last resort, always present.
  public var contentKey: Int64
  /// Hash of what makes a change visible (title, link, summary, content, enclosure URLs): a
  /// different one makes a known item `updated`.
  public var fingerprint: Int64
  /// Seconds since 1970, and the source's pull number, of the last pull that saw it.
  public var lastSeenAt: Int64
  /// The source's pull number (`SubscriptionState.pulls`) of the last pull that saw it.
  public var lastPull: Int
  /// True when the item has dropped out of the feed: kept so that it is not new if it comes back.
  public var gone: Bool

  /// A remembered item, seen last at `lastSeenAt` (seconds since 1970) by pull `lastPull`.
  public init(
    key: Int64, idKey: Int64?, linkKey: Int64?, contentKey: Int64, fingerprint: Int64,
    lastSeenAt: Int64, lastPull: Int, gone: Bool = false
  ) {
    self.key = key
    self.idKey = idKey
    self.linkKey = linkKey
    self.contentKey = contentKey
    self.fingerprint = fingerprint
    self.lastSeenAt = lastSeenAt
    self.lastPull = lastPull
    self.gone = gone
  }
}

/// How long identities are remembered: those seen in the last `pulls` pulls or in the last
/// `seconds`, whichever keeps more. Older ones are dropped; younger ones that left the feed
/// stay as tombstones.
public struct RetentionRule: Sendable, Equatable {
  /// Items seen within this many of the source's latest pulls are kept.
  public var pulls = 50
  /// Items seen within this many seconds (90 days) are kept.
  public var seconds: Int64 = 90 * 86_400
  /// The defaults: 50 pulls or 90 days, whichever keeps more.
  public init() {}
}
