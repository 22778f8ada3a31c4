import FeedPull
import Testing

@testable import Subscriptions

/// A batch of skipped ends is counted from `SkippedEnd.errorKind`, not from the records: the two
/// must agree for every reason a source is not pulled.
@Suite struct SkippedEndRecordTests {
  @Test(arguments: [
    SkippedEnd.Why.notDue, .inProgress, .gone, .held(host: "example.com"), .cancelled,
  ])
  func theCountedKindIsTheRecordsKind(_ why: SkippedEnd.Why) {
    let skipped = SkippedEnd(
      source: "https://example.com/feed.xml", why: why, nextCheckAt: .seconds(1_796_126_400),
      reason: nil)
    #expect(skipped.record.error?.kind == skipped.errorKind)
    #expect(skipped.record.ok == (skipped.errorKind == nil))
  }
}
