/// One item a source has delivered, as the state remembers it: its keys (hashes, so a row
/// stays small whatever the feed's URLs), when it was last in the feed, and whether it has
/// dropped out of the feed's window (`gone`: a tombstone, kept so that an item that reappears
/// is not new again).
public struct RememberedItem: Sendable, Equatable, Codable {
  /// The row's key within its source: the item's primary key when it was first seen.
  public var key: Int64
  public var idKey: Int64?
  public var linkKey: Int64?
  public var contentKey: Int64
  public var fingerprint: Int64
  /// Seconds since 1970, and the source's pull number, of the last pull that saw it.
  public var lastSeenAt: Int64
  public var lastPull: Int
  public var gone: Bool

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
  public var pulls = 50
  public var seconds: Int64 = 90 * 86_400
  public init() {}
}
