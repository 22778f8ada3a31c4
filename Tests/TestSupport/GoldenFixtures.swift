import Foundation

/// Golden fixtures: `Tests/Fixtures/<area>/<case>.xml` (or `.json` for JSON Feeds, `.html`
/// for pages and feed discovery) beside `<case>.jsonl`, the records
/// feedpull must print for it (our own output format is the golden format). Set
/// `FEEDPULL_REGENERATE_GOLDEN=1` to rewrite the `.jsonl` files on purpose, then review the diff.
public enum GoldenFixtures {
  public static var regenerating: Bool {
    ProcessInfo.processInfo.environment["FEEDPULL_REGENERATE_GOLDEN"] == "1"
  }

  /// Paths under `Tests/Fixtures` ("rss/minimal.xml") of the fixtures that have a golden
  /// file, or of every fixture when regenerating.
  public static func cases() -> [String] {
    let root = RepositoryPaths.fixtures
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var cases: [String] = []
    while let path = walker.nextObject() as? String {
      guard suffixes.contains(where: { path.hasSuffix($0) }) else { continue }
      if regenerating || FileManager.default.fileExists(atPath: root.path + "/" + golden(path)) {
        cases.append(path)
      }
    }
    return cases.sorted()
  }

  /// The documents a fixture can be.
  public static let suffixes = [".xml", ".json", ".html"]

  public static func golden(_ fixture: String) -> String {
    let suffix = suffixes.first { fixture.hasSuffix($0) } ?? ""
    return String(fixture.dropLast(suffix.count)) + ".jsonl"
  }

  /// Lines with what depends on the machine taken out: the checkout's path becomes
  /// `/fixtures/`, and `elapsed_ms` is dropped.
  public static func normalized(_ lines: [String]) -> String {
    let root = RepositoryPaths.fixtures.path + "/"
    return lines.map { line in
      var line = line.replacingOccurrences(of: "file://" + root, with: "file:///fixtures/")
      line = line.replacingOccurrences(of: root, with: "")
      if let range = line.range(of: #","elapsed_ms":[0-9]+"#, options: .regularExpression) {
        line.removeSubrange(range)
      }
      return line + "\n"
    }.joined()
  }
}
