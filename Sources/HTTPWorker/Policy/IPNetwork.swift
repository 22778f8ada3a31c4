/// A range of addresses in CIDR notation (`10.0.0.0/8`, `fd00::/8`, `127.0.0.2/32`); a bare
/// address is a range of one.
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
  /// The first address of the range (the bits past the prefix are zero).
  public let base: IPAddress
  /// How many leading bits every address in the range shares with `base`.
  public let prefixLength: Int

  /// A range from its base and prefix length; nil when the length does not fit the family.
  public init?(base: IPAddress, prefixLength: Int) {
    let width = base.bytes.count * 8
    guard (0...width).contains(prefixLength) else { return nil }
    self.base = IPAddress(bytes: Self.masked(base.bytes, prefixLength)) ?? base
    self.prefixLength = prefixLength
  }

  /// `ADDRESS/LENGTH` or `ADDRESS`; nil for anything else (a host name is not a range).
  public init?(_ text: String) {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard let address = IPAddress(String(parts[0])) else { return nil }
    var length = address.bytes.count * 8
    if parts.count == 2 {
      guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), let given = Int(parts[1]) else {
        return nil
      }
      length = given
    }
    self.init(base: address, prefixLength: length)
  }

  /// True when `address` lies in the range. An IPv4 range also holds the IPv4-mapped,
  /// -compatible and NAT64 forms of its addresses, which reach the same hosts.
  public func contains(_ address: IPAddress) -> Bool {
    if address.bytes.count != base.bytes.count {
      guard base.isIPv4, let inner = address.embeddedIPv4 else { return false }
      return contains(inner)
    }
    return Self.masked(address.bytes, prefixLength) == base.bytes
  }

  /// `base/length`.
  public var description: String { "\(base)/\(prefixLength)" }

  private static func masked(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
    bytes.enumerated().map { index, byte in
      let bitsKept = min(8, max(0, length - index * 8))
      return bitsKept == 8 ? byte : byte & ~(UInt8(0xFF) >> bitsKept)
    }
  }
}
