import Foundation

/// A fresh temporary folder for one end-to-end test, removed by `remove()`.
struct CLIScratch {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// Writes `text` to `name` in the folder; its path.
  @discardableResult
  func file(_ name: String, _ text: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  func remove() { try? FileManager.default.removeItem(at: folder) }

  /// An RSS 2.0 feed titled `title` with items `ids` (title "Item ID", guid ID).
  static func feed(_ title: String, items ids: [String]) -> String {
    let items = ids.map { "<item><title>Item \($0)</title><guid>\($0)</guid></item>" }
    return "<rss version=\"2.0\"><channel><title>\(title)</title>\(items.joined())</channel></rss>"
  }
}
