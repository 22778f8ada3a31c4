import Testing

@testable import FeedParser

/// Fuzzer finds not fixed yet (Tests/Fixtures/known-issues/README.md says why): each must stop
/// being a known issue, when fixed, by this test failing.
@Suite struct KnownChunkDependenceTests {
  @Test func recoveryAfterAFatalErrorDependsOnTheChunking() throws {
    let bytes = try fixture("known-issues/recovery-after-fatal-error.bin")
    let whole = parse(bytes)
    let byteByByte = parse(bytes, chunkSizes: Array(repeating: 1, count: bytes.count))
    #expect(whole.result.failure?.kind == .xml)
    #expect(byteByByte.result.failure?.kind == .xml)
    withKnownIssue("libxml2's push parser recovers differently by chunking after a fatal error") {
      #expect(whole == byteByByte)
    }
  }
}
