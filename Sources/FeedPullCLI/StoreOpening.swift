import Subscriptions

/// The store `--state` names (`StoreLocation`: a PostgreSQL URI or a SQLite file), its lease from
/// `FEEDPULL_LEASE` in seconds (the store's default otherwise). `create: false` fails with
/// `noState` where there is no state, creating nothing; `readOnly` opens it only to read.
func openStore(_ location: String, create: Bool = true, readOnly: Bool = false) throws(StoreError)
  -> any SubscriptionStore
{
  var options = StoreLocation.Options()
  options.create = create
  options.readOnly = readOnly
  if let seconds = environmentVariable("FEEDPULL_LEASE").flatMap(Double.init),
    seconds > 0
  {
    options.lease = .milliseconds(Int64(seconds * 1000))
  }
  return try StoreLocation(location).open(options)
}
