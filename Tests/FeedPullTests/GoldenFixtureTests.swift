import Foundation
import TestSupport
import Testing

@testable import FeedPull

/// Every fixture through the whole local pipeline (reader, parser, JSON Lines), compared with
/// its golden file.
@Suite struct GoldenFixtureTests {
  @Test(arguments: GoldenFixtures.cases())
  func matchesGolden(_ fixture: String) throws {
    let path = RepositoryPaths.fixtures.appendingPathComponent(fixture).path
    let collector = PullRecordCollector()
    var configuration = FeedPuller.Configuration.forLoopbackTests
    configuration.html = Self.htmlMode(of: fixture)
    let puller = try FeedPuller(configuration: configuration)
    puller.pull([PullSource(path)], into: collector)
    puller.syncShutdown()
    let actual = GoldenFixtures.normalized(collector.records.map(JSONLinesEncoding.line))
    let goldenURL = RepositoryPaths.fixtures.appendingPathComponent(
      GoldenFixtures.golden(fixture))
    if GoldenFixtures.regenerating {
      try actual.write(to: goldenURL, atomically: true, encoding: .utf8)
      return
    }
    let expected = try String(contentsOf: goldenURL, encoding: .utf8)
    #expect(
      actual == expected, "\(fixture): regenerate with FEEDPULL_REGENERATE_GOLDEN=1 if intended")
  }

  /// `case.html-text.xml` is read with `--html text`, `case.html-raw.xml` with `--html raw`;
  /// every other fixture with the default, `safe`.
  static func htmlMode(of fixture: String) -> HTMLMode {
    if fixture.contains(".html-text.") { return .text }
    if fixture.contains(".html-raw.") { return .raw }
    return .safe
  }
}
