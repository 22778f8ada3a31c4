import Foundation
import HTTPWorker

/// How a source's state is kept in a store's `state` column: its `Codable` JSON, the same text
/// in SQLite and PostgreSQL, so that a state exported from one reads in the other.
extension SubscriptionState {
  /// The JSON a store writes.
  func storedJSON(_ encoder: JSONEncoder) throws(StoreError) -> String {
    do {
      return String(decoding: try encoder.encode(self), as: UTF8.self)
    } catch {
      throw StoreError(
        message: "cannot encode the state of \(URLPasswordMask.masked(source)): \(error)")
    }
  }

  /// The state a store read back; a fresh one for a source registered but never pulled (no
  /// JSON yet).
  static func stored(source: String, json: String?) throws(StoreError) -> SubscriptionState {
    guard let json else { return SubscriptionState(source: source) }
    do {
      return try JSONDecoder().decode(SubscriptionState.self, from: Data(json.utf8))
    } catch {
      throw StoreError(
        message: "the state of \(URLPasswordMask.masked(source)) cannot be read: \(error)")
    }
  }
}
