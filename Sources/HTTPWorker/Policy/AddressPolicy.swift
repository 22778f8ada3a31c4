/// Which addresses the worker may connect to: for a service that pulls URLs its users typed,
/// so that a feed URL, a redirect or a discovered link cannot make it reach the machine itself
/// or the private network behind it (server-side request forgery).
///
/// The worker asks before every connection curl opens (`CURLOPT_OPENSOCKETFUNCTION`), with the
/// address curl is about to connect to: every redirect hop and every discovered feed, whatever
/// the URL spelled (a name, `2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`) and whatever a name
/// resolved to at that moment (DNS rebinding gains nothing). A connection that is reused was
/// asked about when it was opened.
public struct AddressPolicy: Sendable, Hashable {
  /// Refuse the ranges of `privateRanges` (loopback, private, link-local, …).
  public var deniesPrivate = false
  /// Ranges allowed even when `deniesPrivate` would refuse them: a service's own intranet, or a
  /// test server on 127.0.0.2 while 127.0.0.1 stays refused.
  public var allowed: [IPNetwork] = []

  /// The policy that allows every address (the default).
  public init() {}

  /// A policy that refuses private addresses unless `allowed` holds them.
  public init(deniesPrivate: Bool, allowed: [IPNetwork] = []) {
    self.deniesPrivate = deniesPrivate
    self.allowed = allowed
  }

  /// Why `address` may not be connected to (the name of its range, for the message), or nil
  /// when it may.
  public func refusal(of address: IPAddress) -> String? {
    guard deniesPrivate, let range = Self.privateRange(of: address) else { return nil }
    if allowed.contains(where: { $0.contains(address) }) { return nil }
    return range
  }

  /// The name of the special-purpose range `address` belongs to, or nil for a public address.
  /// IPv4-mapped, -compatible and NAT64 IPv6 addresses are judged by the IPv4 address they
  /// carry, since that is the host a connection to them reaches.
  public static func privateRange(of address: IPAddress) -> String? {
    if let inner = address.embeddedIPv4, let range = privateRange(of: inner) { return range }
    return privateRanges.first { $0.network.contains(address) }?.name
  }

  /// The ranges `deniesPrivate` refuses (RFC 6890's special-purpose registries, the parts that
  /// reach this machine, its networks or many hosts at once), as a table: a new range is a row.
  public static let privateRanges: [(network: IPNetwork, name: String)] = [
    ("0.0.0.0/8", "unspecified"),  // "this network": 0.0.0.0 reaches the local host on Linux
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "shared"),  // carrier-grade NAT (RFC 6598)
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),  // cloud metadata services live here
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.168.0.0/16", "private"),
    ("198.18.0.0/15", "benchmarking"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),  // 255.255.255.255, the broadcast address, included
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("fc00::/7", "unique-local"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),  // deprecated, still routed privately
    ("ff00::/8", "multicast"),
  ].compactMap { text, name in IPNetwork(text).map { ($0, name) } }
}
