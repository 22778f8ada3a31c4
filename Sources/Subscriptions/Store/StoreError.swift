/// Why the state could not be read or written. The message names the file or database and is
/// meant for a person (`feedpull: …` on stderr).
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure, for a caller that acts on it.
  public enum Kind: Sendable, Equatable {
    /// The store failed (a bad file, a statement refused).
    case failed
    /// Another process held the database past the busy timeout.
    case busy
    /// No state exists at the location, and the caller asked not to create one.
    case noState
    /// The database could not be reached, or the connection to it was lost.
    case unavailable
  }

  /// What failed, for a person (the file or database, and the call).
  public var message: String
  /// What kind of failure.
  public var kind: Kind
  /// Another process held the database past the busy timeout.
  public var isBusy: Bool { kind == .busy }

  /// An error of `kind` saying `message`.
  public init(message: String, kind: Kind = .failed) {
    self.message = message
    self.kind = kind
  }

  /// The message.
  public var description: String { message }
}
