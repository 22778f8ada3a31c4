import Foundation

/// Where the repository's sample feeds and test fixtures live, found from this file's path so
/// tests work from any working directory.
public enum RepositoryPaths {
  public static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  public static let feeds = root.appendingPathComponent("feeds")
  public static let fixtures = root.appendingPathComponent("Tests/Fixtures")
}
