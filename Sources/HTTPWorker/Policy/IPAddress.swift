import Foundation

/// An IPv4 or IPv6 address as the bytes a socket connects to, for the address policy.
///
/// The policy judges the address curl is about to connect to, never the host name as the URL
/// spells it: `2130706433`, `0x7f.1` and `0177.0.0.1` all reach 127.0.0.1, and a name can
/// resolve to anything, so only the connected address is a fact.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
  /// 4 bytes for IPv4, 16 for IPv6, in network order.
  public let bytes: [UInt8]

  /// An address from its 4 or 16 bytes; nil for any other length.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 4 || bytes.count == 16 else { return nil }
    self.bytes = bytes
  }

  /// An address in its usual text form (`127.0.0.1`, `::ffff:10.0.0.1`, `fe80::1`); brackets
  /// around IPv6 are allowed. Only the canonical dotted quad is read for IPv4 here: other
  /// spellings are the resolver's business, and the policy sees what they resolved to.
  public init?(_ text: String) {
    var name = text
    if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    var v4 = in_addr()
    if inet_pton(AF_INET, name, &v4) == 1 {
      bytes = withUnsafeBytes(of: &v4) { Array($0) }
      return
    }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, name, &v6) == 1 else { return nil }
    bytes = withUnsafeBytes(of: &v6) { Array($0) }
  }

  /// True for IPv4.
  public var isIPv4: Bool { bytes.count == 4 }

  /// The IPv4 address an IPv6 address carries and that a connection to it reaches: the
  /// IPv4-mapped form `::ffff:a.b.c.d` (a dual-stack socket connects to the IPv4 host), the
  /// deprecated IPv4-compatible form `::a.b.c.d`, and the well-known NAT64 prefix
  /// `64:ff9b::/96` (RFC 6052), which a NAT64 gateway turns back into `a.b.c.d`. Nil for IPv4
  /// itself and for any other IPv6 address.
  public var embeddedIPv4: IPAddress? {
    guard bytes.count == 16 else { return nil }
    let head = bytes[0..<12]
    let tail = Array(bytes[12..<16])
    let mapped = head.elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF])
    let nat64 = head.elementsEqual([0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0])
    // `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4 ones.
    let compatible = head.allSatisfy { $0 == 0 } && tail[0..<3] != [0, 0, 0]
    return mapped || nat64 || compatible ? IPAddress(bytes: tail) : nil
  }

  /// The address as text: a dotted quad, or IPv6 as `inet_ntop` writes it.
  public var description: String {
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    let family = isIPv4 ? AF_INET : AF_INET6
    let written = bytes.withUnsafeBytes { raw in
      inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count))
    }
    guard written != nil else { return "?" }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
