import Foundation
import TestSupport

/// Runs the real `feedpull` with `--state`, at a chosen time (`FEEDPULL_NOW`, read only by the
/// command line), for end-to-end tests of state between runs.
struct StateRun {
  let statePath = TemporaryState.path()

  /// `feedpull -f jsonl --state PATH arguments…`, at `now` (seconds since 1970) when given.
  func run(_ arguments: [String], now: Int64? = nil, deadline: TimeInterval = 60) throws
    -> FeedpullProcess.Result
  {
    var environment = ["FEEDPULL_NOW=\(now.map(String.init) ?? "")"]
    if now == nil { environment = [] }
    return try FeedpullProcess.run(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      environment + [
        FeedpullProcess.binary.path, "-f", "jsonl", "--state", statePath,
        // Every test server is one site (127.0.0.1): politeness is tested on its own.
        "--per-host", "8", "--host-delay", "0",
      ] + arguments, deadline: deadline)
  }

  func remove() {
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: statePath + suffix)
    }
  }
}

extension FeedpullProcess.Result {
  /// Records of one type.
  func records(_ type: String) -> [[String: any Sendable]] {
    records.filter { $0["type"] as? String == type }
  }

  /// Item titles with their status, in output order.
  var itemStatuses: [String] {
    records("item").map { "\($0["title"] as? String ?? "?"):\($0["status"] as? String ?? "-")" }
  }

  func end(of source: String) -> [String: any Sendable]? {
    records("end").first { $0["source"] as? String == source }
  }
}

/// An RSS document with items titled and guid'ed by `items` (title = guid = the string).
func subscribedFeed(_ items: [String], guids: [String]? = nil, extra: String = "") -> String {
  let entries = items.enumerated().map { index, title in
    "<item><title>\(title)</title><link>http://example.com/\(title)</link>"
      + "<guid isPermaLink=\"false\">\(guids?[index] ?? title)</guid>\(extra)</item>"
  }
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title>"
    + entries.joined() + "</channel></rss>"
}
