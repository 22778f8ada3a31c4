/// What feedpull remembers about one source between pulls. A value, `Codable`, one per source:
/// an embedder with its own database passes it in and stores what comes out, without SQLite.
/// Moments are `Duration`s since 1970 (`SubscriptionClock`), whole seconds when stored.
public struct SubscriptionState: Sendable, Equatable {
  /// The SOURCE as the subscriber gave it; the key of everything else.
  public var source: String
  /// Validators of the last full response, sent back as `If-None-Match` / `If-Modified-Since`.
  public var etag: String?
  /// The last `Last-Modified`, sent back as `If-Modified-Since`.
  public var lastModified: String?
  /// A hash of the last body: a 200 with the same bytes is "not modified" too.
  public var bodyDigest: UInt64?
  /// When the source was last pulled; nil before the first pull.
  public var lastCheckAt: Duration?
  /// When the source was last pulled without validators (one a day at least, because some
  /// servers' validators lie); nil before the first.
  public var lastUnconditionalAt: Duration?
  /// When the source is due again. Zero: due now (a source new to the state).
  public var nextCheckAt: Duration = .zero
  /// What set `nextCheckAt`; nil for a source never pulled.
  public var nextCheckReason: CheckReason?
  /// Failures since the last success; 429/503 do not count (they are rate limits).
  public var errorsInRow = 0
  /// A 410 said the source is gone: skipped until forced.
  public var gone = false
  /// A permanent redirect's target and how many pulls in a row saw it; adopted as `movedTo`
  /// at three, so that one flaky redirect does not move a subscription.
  public var redirectTarget: String?
  /// Pulls in a row that ended at `redirectTarget` through permanent redirects only.
  public var redirectCount = 0
  /// The URL requested in place of `source` once a permanent redirect was seen three times in a
  /// row; records still carry `source`.
  public var movedTo: String?
  /// How items of this source are told apart, decided from what the last pull saw.
  public var identityMode: IdentityMode = .id
  /// Pulls that parsed a body: retention counts remembered items in pulls.
  public var pulls = 0
  /// When the latest new items appeared, oldest first, at most `ItemRate.capacity`: the
  /// observed posting rate.
  public var newItemTimes: [Duration] = []
  /// Where the store that read this state keeps it, for that store's write of the pull's end;
  /// not part of the state's value (`StoreRowHint`).
  var storeRow = StoreRowHint()

  /// A source new to the state: due now, identified by id until a pull says otherwise.
  public init(source: String) { self.source = source }

  /// The URL a pull requests: the adopted permanent redirect, else the source itself.
  public var requestURL: String { movedTo ?? source }
}

/// The state as JSON, moments as whole seconds since 1970 (the names and numbers of earlier
/// versions, so that a state an embedder stored reads back).
extension SubscriptionState: Codable {
  private enum CodingKeys: String, CodingKey {
    case source, etag, lastModified, bodyDigest, lastCheckAt, lastUnconditionalAt, nextCheckAt
    case nextCheckReason, errorsInRow, gone, redirectTarget, redirectCount, movedTo
    case identityMode, pulls, newItemTimes
  }

  /// Reads a state written by `encode(to:)`; fields left out take their defaults.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    source = try values.decode(String.self, forKey: .source)
    func moment(_ key: CodingKeys) throws -> Duration? {
      try values.decodeIfPresent(Int64.self, forKey: key).map { .seconds($0) }
    }
    etag = try values.decodeIfPresent(String.self, forKey: .etag)
    lastModified = try values.decodeIfPresent(String.self, forKey: .lastModified)
    bodyDigest = try values.decodeIfPresent(UInt64.self, forKey: .bodyDigest)
    lastCheckAt = try moment(.lastCheckAt)
    lastUnconditionalAt = try moment(.lastUnconditionalAt)
    nextCheckAt = try moment(.nextCheckAt) ?? .zero
    nextCheckReason = try values.decodeIfPresent(CheckReason.self, forKey: .nextCheckReason)
    errorsInRow = try values.decodeIfPresent(Int.self, forKey: .errorsInRow) ?? 0
    gone = try values.decodeIfPresent(Bool.self, forKey: .gone) ?? false
    redirectTarget = try values.decodeIfPresent(String.self, forKey: .redirectTarget)
    redirectCount = try values.decodeIfPresent(Int.self, forKey: .redirectCount) ?? 0
    movedTo = try values.decodeIfPresent(String.self, forKey: .movedTo)
    identityMode = try values.decodeIfPresent(IdentityMode.self, forKey: .identityMode) ?? .id
    pulls = try values.decodeIfPresent(Int.self, forKey: .pulls) ?? 0
    newItemTimes =
      try values.decodeIfPresent([Int64].self, forKey: .newItemTimes)?.map { .seconds($0) } ?? []
  }

  /// Writes every field, moments as whole seconds since 1970.
  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: CodingKeys.self)
    try values.encode(source, forKey: .source)
    try values.encodeIfPresent(etag, forKey: .etag)
    try values.encodeIfPresent(lastModified, forKey: .lastModified)
    try values.encodeIfPresent(bodyDigest, forKey: .bodyDigest)
    try values.encodeIfPresent(lastCheckAt?.wholeSeconds, forKey: .lastCheckAt)
    try values.encodeIfPresent(lastUnconditionalAt?.wholeSeconds, forKey: .lastUnconditionalAt)
    try values.encode(nextCheckAt.wholeSeconds, forKey: .nextCheckAt)
    try values.encodeIfPresent(nextCheckReason, forKey: .nextCheckReason)
    try values.encode(errorsInRow, forKey: .errorsInRow)
    try values.encode(gone, forKey: .gone)
    try values.encodeIfPresent(redirectTarget, forKey: .redirectTarget)
    try values.encode(redirectCount, forKey: .redirectCount)
    try values.encodeIfPresent(movedTo, forKey: .movedTo)
    try values.encode(identityMode, forKey: .identityMode)
    try values.encode(pulls, forKey: .pulls)
    try values.encode(newItemTimes.map(\.wholeSeconds), forKey: .newItemTimes)
  }
}

/// Where a store keeps a state it read (SQLite's row id), so that the pull's end is written to
/// that row without looking the source up by its name (a search of the names' index, about 7% of
/// a 304's record). A hint, never the truth: it is not part of the state's value (any two hints
/// are equal, so states compare as before), not encoded, not exported; the store checks the
/// row's name before it trusts it, so a state moved from another store, or a row gone meanwhile,
/// falls back to the name.
struct StoreRowHint: Sendable, Equatable {
  /// The row id; nil when the state was not read from a row (new, made by hand, decoded).
  var id: Int64?

  /// Always true: a hint does not make two states differ.
  static func == (_: StoreRowHint, _: StoreRowHint) -> Bool { true }
}
