import Testing

/// The end-to-end tests of the network policy and of HTTPS (real TLS, nginx, the binary), one
/// at a time: each starts servers and processes of its own, and running them all at once would
/// hold enough descriptors and CPU to disturb the tests that count those.
@Suite(.serialized) enum NetworkPolicyEndToEnd {}
