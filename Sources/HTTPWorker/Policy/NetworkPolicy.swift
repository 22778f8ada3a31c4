/// The worker's network policy, shared by every transfer of one worker: one object, so that a
/// queued transfer carries a pointer to it rather than a copy (ten thousand queued sources
/// are ten thousand transfers).
final class NetworkPolicy: Sendable {
  let trust: TLSTrust
  let addressPolicy: AddressPolicy
  let allowsDowngrade: Bool
  let netrc: NetrcUse?

  init(_ configuration: ConnectionWorker.Configuration) {
    trust = configuration.trust
    addressPolicy = configuration.addressPolicy
    allowsDowngrade = configuration.allowsDowngrade
    netrc = configuration.netrc
  }
}
