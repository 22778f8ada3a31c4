import Testing

@testable import FeedPullCLI

/// The one time syntax and the one size syntax, as every option reads them.
@Suite struct ValueSyntaxTests {
  static let durationCases: [(String, Int64)] = [
    ("500ms", 500), ("0s", 0), ("0", 0), ("1.5m", 90_000), ("2h", 7_200_000),
    ("1d", 86_400_000), ("30", 30_000), ("0.25", 250), ("2.5s", 2500), ("15m", 900_000),
    ("1.", 1000), (".5", 500),
  ]

  static let sizeCases: [(String, Int64)] = [
    ("0", 0), ("100", 100), ("512K", 512 << 10), ("512k", 512 << 10), ("64M", 64 << 20),
    ("1MiB", 1 << 20), ("1mib", 1 << 20), ("1G", 1 << 30), ("2GiB", 2 << 30), ("1KiB", 1024),
    ("1.5M", 1_572_864), ("10B", 10),
  ]

  @Test(arguments: durationCases)
  func durations(_ text: String, _ milliseconds: Int64) {
    #expect(ValueSyntax.duration(text) == .milliseconds(milliseconds))
  }

  @Test(arguments: [
    "", "-1", "1 m", "m", "1x", "1mm", "1.2.3", "2H", "1e3", "+5", "1,5", "∞", "nan", "1min",
  ])
  func notDurations(_ text: String) {
    #expect(ValueSyntax.duration(text) == nil)
  }

  @Test(arguments: sizeCases)
  func sizes(_ text: String, _ bytes: Int64) {
    #expect(ValueSyntax.size(text) == bytes)
  }

  @Test(arguments: ["", "-1", "12Q", "1 M", "1.5", "M", "1MB", "1KB", "1TiB", "0x10"])
  func notSizes(_ text: String) {
    #expect(ValueSyntax.size(text) == nil)
  }

  @Test func defaultsAreWrittenInTheSameSyntax() {
    #expect(ValueSyntax.text(of: Duration.seconds(30)) == "30s")
    #expect(ValueSyntax.text(of: Duration.seconds(900)) == "15m")
    #expect(ValueSyntax.text(of: Duration.seconds(86_400)) == "1d")
    #expect(ValueSyntax.text(of: Duration.milliseconds(1500)) == "1500ms")
    #expect(ValueSyntax.text(of: Duration.zero) == "0s")
    #expect(ValueSyntax.text(of: Int64(64 << 20)) == "64M")
    for text in ["30s", "15m", "1d", "1500ms", "0s"] {
      #expect(ValueSyntax.duration(text).map { ValueSyntax.text(of: $0) } == text)
    }
  }
}
