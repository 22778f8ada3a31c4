/// Where a state lives, as a person names it (`--state`): a PostgreSQL database for a
/// `postgresql://` or `postgres://` URI, else a SQLite file. Opening goes through here, so that
/// a caller (the command line, an embedder) works with any store and never names one.
public struct StoreLocation: Sendable, Equatable, CustomStringConvertible {
  /// How a state is opened.
  public struct Options: Sendable {
    /// How long a claim holds without renewal (a process that dies loses its sources to others
    /// this long after its last renewal).
    public var lease: Duration = .seconds(60)
    /// Create the state when there is none; false: none is a `noState` error and nothing is
    /// created.
    public var create = true
    /// Only read it (`state list`, `export`): works where the state may only be read.
    public var readOnly = false
    /// Creating, read-write, 60 s leases.
    public init() {}
  }

  /// The location as given.
  public let text: String

  /// The location `text` names.
  public init(_ text: String) {
    self.text = text
  }

  /// The location as given.
  public var description: String { text }

  /// Whether it names a database shared over the network rather than a file.
  public var isDatabase: Bool { PostgresSubscriptionStore.isDatabaseURI(text) }

  /// Opens the state (see `Options`).
  public func open(_ options: Options = Options()) throws(StoreError) -> any SubscriptionStore {
    if isDatabase {
      return try PostgresSubscriptionStore(
        uri: text, lease: options.lease, create: options.create && !options.readOnly)
    }
    var file = SQLiteSubscriptionStore.Options()
    file.lease = options.lease
    file.create = options.create
    file.readOnly = options.readOnly
    return try SQLiteSubscriptionStore(path: text, options: file)
  }
}
