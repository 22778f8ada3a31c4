import FeedPullSupport
import Testing

@testable import Subscriptions

/// `Duration` read as the layers need it (FeedPullSupport, which has no test target of its own).
/// The layer's moments as stores keep them: whole seconds, rounded down, by one division of
/// `Duration`'s attoseconds; checked against what `components` says.
@Suite struct DurationSecondsTests {
  @Test(arguments: [
    (Duration.seconds(1_796_126_400), Int64(1_796_126_400)),
    (.seconds(1_796_126_400) + .milliseconds(999), 1_796_126_400),
    (.zero, 0),
    (.nanoseconds(1), 0),
    (.nanoseconds(-1), -1),
    (.seconds(-5), -5),
    (.seconds(-5) + .milliseconds(1), -5),
    (.seconds(-5) - .milliseconds(1), -6),
    (.seconds(Int64.max), Int64.max),
    (.seconds(Int64.min), Int64.min),
  ])
  func wholeSecondsRoundDown(_ moment: Duration, _ expected: Int64) {
    #expect(moment.wholeSeconds == expected)
    let parts = moment.components
    #expect(moment.wholeSeconds == (parts.attoseconds < 0 ? parts.seconds - 1 : parts.seconds))
  }

  @Test func wholeSecondsClampBeyondInt64() {
    let far = Duration.seconds(Int64.max) * 4
    #expect(far.wholeSeconds == Int64.max)
    #expect((Duration.zero - far).wholeSeconds == Int64.min)
  }

  @Test func inSecondsKeepsTheFraction() {
    #expect((Duration.seconds(12) + .milliseconds(250)).inSeconds == 12.25)
    #expect((Duration.zero - .milliseconds(1500)).inSeconds == -1.5)
    #expect(Duration.nanoseconds(1).inSeconds == 1e-9)
    #expect(Duration.seconds(30).inSeconds == 30)
  }

  @Test func inSecondsAgreesWithComponentsAndClamps() {
    for moment in [
      Duration.seconds(1_796_126_400) + .microseconds(5), .seconds(-7) + .nanoseconds(3),
    ] {
      let parts = moment.components
      #expect(moment.inSeconds == Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }
    #expect((Duration.seconds(Int64.max) * 4).inSeconds == Double(Int64.max))
  }
}
