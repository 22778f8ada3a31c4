import Foundation
import Subscriptions

/// The store `--state` names (`StoreLocation`: a PostgreSQL database for a `postgresql://` or
/// `postgres://` URI, else a SQLite file), its lease in seconds from `FEEDPULL_LEASE` (60 by
/// default). `create` false: a location with no state is a `noState` error and nothing is made
/// there; `readOnly`: the state is only read (`state list`, `export`).
func openStore(_ location: String, create: Bool = true, readOnly: Bool = false) throws(StoreError)
  -> any SubscriptionStore
{
  var options = StoreLocation.Options()
  options.create = create
  options.readOnly = readOnly
  if let seconds = ProcessInfo.processInfo.environment["FEEDPULL_LEASE"].flatMap(Double.init),
    seconds > 0
  {
    options.lease = .milliseconds(Int64(seconds * 1000))
  }
  return try StoreLocation(location).open(options)
}
