import HTTPWorker
import TestSupport
import Testing

/// The address policy as a table: which connected addresses `deniesPrivate` refuses, the
/// IPv4 forms hidden in IPv6 addresses, and `--allow-net` ranges. No sockets: the worker's
/// part (asking before each connection) is in `AddressPolicyWorkerTests` and end to end.
@Suite struct AddressPolicyTests {
  @Test(arguments: [
    ("127.0.0.1", "loopback"), ("127.255.255.254", "loopback"), ("10.1.2.3", "private"),
    ("172.16.0.1", "private"), ("172.31.255.255", "private"), ("192.168.1.1", "private"),
    ("169.254.169.254", "link-local"), ("100.64.0.1", "shared"), ("100.127.255.255", "shared"),
    ("0.0.0.0", "unspecified"), ("224.0.0.1", "multicast"), ("255.255.255.255", "reserved"),
    ("::1", "loopback"), ("::", "unspecified"), ("fe80::1", "link-local"),
    ("fd00::1", "unique-local"), ("fc00::1", "unique-local"), ("ff02::1", "multicast"),
    // IPv4 inside IPv6: mapped, compatible and NAT64 forms reach the IPv4 host.
    ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.0.0.1", "private"),
    ("::127.0.0.1", "loopback"), ("64:ff9b::a9fe:a9fe", "link-local"),
    ("::ffff:169.254.169.254", "link-local"),
  ])
  func privateAddressesAreNamed(_ text: String, _ range: String) throws {
    let address = try #require(IPAddress(text))
    #expect(AddressPolicy.privateRange(of: address) == range)
    #expect(AddressPolicy(deniesPrivate: true).refusal(of: address) == range)
    #expect(AddressPolicy().refusal(of: address) == nil)
  }

  @Test(arguments: [
    "93.184.216.34", "8.8.8.8", "172.32.0.1", "172.15.255.255", "100.128.0.1", "192.169.0.1",
    "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2001:db8::1",
  ])
  func publicAddressesPass(_ text: String) throws {
    let address = try #require(IPAddress(text))
    #expect(AddressPolicy.privateRange(of: address) == nil)
    #expect(AddressPolicy(deniesPrivate: true).refusal(of: address) == nil)
  }

  @Test func allowedRangesPassAndTheRestStaysDenied() throws {
    let policy = AddressPolicy(
      deniesPrivate: true, allowed: [try #require(IPNetwork("127.0.0.2/32"))])
    #expect(policy.refusal(of: try #require(IPAddress("127.0.0.2"))) == nil)
    #expect(policy.refusal(of: try #require(IPAddress("::ffff:127.0.0.2"))) == nil)
    #expect(policy.refusal(of: try #require(IPAddress("127.0.0.1"))) == "loopback")
    #expect(policy.refusal(of: try #require(IPAddress("::ffff:127.0.0.1"))) == "loopback")
    let intranet = AddressPolicy(
      deniesPrivate: true,
      allowed: [try #require(IPNetwork("10.0.0.0/8")), try #require(IPNetwork("fd00::/8"))])
    #expect(intranet.refusal(of: try #require(IPAddress("10.200.3.4"))) == nil)
    #expect(intranet.refusal(of: try #require(IPAddress("fd12::1"))) == nil)
    #expect(intranet.refusal(of: try #require(IPAddress("192.168.0.1"))) == "private")
  }

  @Test func rangesParseAsCIDRAndRefuseAnythingElse() throws {
    let network = try #require(IPNetwork("172.16.5.4/12"))
    #expect(network.description == "172.16.0.0/12")
    #expect(network.contains(try #require(IPAddress("172.31.0.1"))))
    #expect(!network.contains(try #require(IPAddress("172.32.0.1"))))
    #expect(IPNetwork("10.0.0.1")?.prefixLength == 32)
    #expect(IPNetwork("::1")?.prefixLength == 128)
    #expect(IPNetwork("fe80::/10")?.contains(try #require(IPAddress("febf::1"))) == true)
    for bad in ["10.0.0.0/33", "::/129", "example.com", "10.0.0.0/", "10.0.0.0/x", "", "/8"] {
      #expect(IPNetwork(bad) == nil, "\(bad)")
    }
  }

  @Test func onlyCanonicalAddressTextIsReadHere() {
    // Other spellings (decimal, octal, hex) are the resolver's business: the policy judges
    // the address they resolve to, which the end-to-end tests check.
    for spelling in ["2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.1", "localhost"] {
      #expect(IPAddress(spelling) == nil, "\(spelling)")
    }
    #expect(IPAddress("[::1]")?.description == "::1")
  }
}
