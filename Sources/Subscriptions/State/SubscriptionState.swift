/// What feedpull remembers about one source between pulls. A value, `Codable`, one per source:
/// an embedder with its own database passes it in and stores what comes out, without SQLite.
public struct SubscriptionState: Codable, Sendable, Equatable {
  /// The SOURCE as the subscriber gave it; the key of everything else.
  public var source: String
  /// Validators of the last full response, sent back as `If-None-Match` / `If-Modified-Since`.
  public var etag: String?
  /// The last `Last-Modified`, sent back as `If-Modified-Since`.
  public var lastModified: String?
  /// A hash of the last body: a 200 with the same bytes is "not modified" too.
  public var bodyDigest: UInt64?
  /// Seconds since 1970 of the last pull, and of the last one made without validators (one a
  /// day at least, because some servers' validators lie).
  public var lastCheckAt: Int64?
  /// Seconds since 1970 of the last pull sent without validators; nil before the first.
  public var lastUnconditionalAt: Int64?
  /// When the source is due again, and why then. 0: due now (a source new to the state).
  public var nextCheckAt: Int64 = 0
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
  /// The times (seconds since 1970) at which the latest new items appeared, newest last, at
  /// most `ItemRate.capacity`: the observed posting rate.
  public var newItemTimes: [Int64] = []

  /// A source new to the state: due now, identified by id until a pull says otherwise.
  public init(source: String) { self.source = source }

  /// The URL a pull requests: the adopted permanent redirect, else the source itself.
  public var requestURL: String { movedTo ?? source }
}
