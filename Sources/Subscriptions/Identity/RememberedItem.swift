/// One item a source has delivered, as the state remembers it: its keys (hashes, so a row
/// stays small whatever the feed's URLs), when it was last in the feed, and whether it has
/// dropped out of the feed's window (`gone`: a tombstone, kept so that an item that reappears
/// is not new again).
public struct RememberedItem: Sendable, Equatable {
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
  /// When the last pull that saw it happened (whole seconds since 1970).
  public var lastSeenAt: Duration
  /// The source's pull number (`SubscriptionState.pulls`) of the last pull that saw it.
  public var lastPull: Int
  /// True when the item has dropped out of the feed: kept so that it is not new if it comes back.
  public var gone: Bool

  /// A remembered item, seen last at `lastSeenAt` (since 1970) by pull `lastPull`.
  public init(
    key: Int64, idKey: Int64?, linkKey: Int64?, contentKey: Int64, fingerprint: Int64,
    lastSeenAt: Duration, lastPull: Int, gone: Bool = false
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

/// How long identities are remembered: those seen in the last `pulls` pulls or within the last
/// `age`, whichever keeps more. Older ones are dropped; younger ones that left the feed
/// stay as tombstones.
public struct RetentionRule: Sendable, Equatable {
  /// Items seen within this many of the source's latest pulls are kept.
  public var pulls = 50
  /// Items seen within this long (90 days) are kept.
  public var age: Duration = .seconds(90 * 86_400)
  /// The defaults: 50 pulls or 90 days, whichever keeps more.
  public init() {}
}

/// An item as JSON, `lastSeenAt` as whole seconds since 1970 (as earlier versions wrote it).
extension RememberedItem: Codable {
  private enum CodingKeys: String, CodingKey {
    case key, idKey, linkKey, contentKey, fingerprint, lastSeenAt, lastPull, gone
  }

  /// Reads an item written by `encode(to:)`.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      key: try values.decode(Int64.self, forKey: .key),
      idKey: try values.decodeIfPresent(Int64.self, forKey: .idKey),
      linkKey: try values.decodeIfPresent(Int64.self, forKey: .linkKey),
      contentKey: try values.decode(Int64.self, forKey: .contentKey),
      fingerprint: try values.decode(Int64.self, forKey: .fingerprint),
      lastSeenAt: .seconds(try values.decode(Int64.self, forKey: .lastSeenAt)),
      lastPull: try values.decode(Int.self, forKey: .lastPull),
      gone: try values.decodeIfPresent(Bool.self, forKey: .gone) ?? false)
  }

  /// Writes every field, `lastSeenAt` in whole seconds since 1970.
  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: CodingKeys.self)
    try values.encode(key, forKey: .key)
    try values.encodeIfPresent(idKey, forKey: .idKey)
    try values.encodeIfPresent(linkKey, forKey: .linkKey)
    try values.encode(contentKey, forKey: .contentKey)
    try values.encode(fingerprint, forKey: .fingerprint)
    try values.encode(lastSeenAt.wholeSeconds, forKey: .lastSeenAt)
    try values.encode(lastPull, forKey: .lastPull)
    try values.encode(gone, forKey: .gone)
  }
}
