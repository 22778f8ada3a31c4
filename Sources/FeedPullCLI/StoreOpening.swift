import Foundation
import Subscriptions

/// The store `--state` names: a PostgreSQL database for a `postgresql://` or `postgres://`
/// URI (its lease in seconds from `FEEDPULL_LEASE`, 300 by default), else a SQLite file.
func openStore(_ location: String) throws(StoreError) -> any SubscriptionStore {
  guard PostgresSubscriptionStore.isDatabaseURI(location) else {
    return try SQLiteSubscriptionStore(path: location)
  }
  let lease = ProcessInfo.processInfo.environment["FEEDPULL_LEASE"].flatMap(Double.init) ?? 300
  return try PostgresSubscriptionStore(uri: location, lease: lease)
}
