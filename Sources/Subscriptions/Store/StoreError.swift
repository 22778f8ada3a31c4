/// Why the state could not be read or written. The message names the file and is meant for a
/// person (`feedpull: …` on stderr).
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What failed, for a person (the file or database, and the call).
  public var message: String
  /// Another process held the database past the busy timeout.
  public var isBusy = false
  public init(message: String, isBusy: Bool = false) {
    self.message = message
    self.isBusy = isBusy
  }
  /// The message.
  public var description: String { message }
}
