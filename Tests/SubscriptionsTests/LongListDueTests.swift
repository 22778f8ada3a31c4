import FeedPull
import Foundation
import TestSupport
import Testing

@testable import Subscriptions

/// `--due -i` over a list long enough to be answered from one scan of the state
/// (`ScheduleSnapshot.minimumSources` names or more), through the real binary and a real SQLite
/// file: the due sources are pulled, every other ends `not_due` in the list's order (the scan
/// on its own thread, the skipped ends encoded on theirs), and the file alone holds the state
/// afterwards (the scan's connection closed before the checkpoint emptied the log).
@Suite struct LongListDueTests {
  static let now: Int64 = 1_796_126_400

  @Test func aLongListIsAnsweredFromTheScanInTheListsOrder() throws {
    let run = StateRun()
    defer { run.remove() }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-long-list-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // Every 1,000th source is a local feed that is due; the others are known and due next week.
    var names: [String] = []
    var due: Set<String> = []
    for index in 0..<(ScheduleSnapshot.minimumSources + 904) {
      if index % 1000 == 0 {
        let file = folder.appendingPathComponent("due\(index).xml")
        try subscribedFeed(["a\(index)", "b\(index)"]).write(
          to: file, atomically: true, encoding: .utf8)
        names.append(file.path)
        due.insert(file.path)
      } else {
        names.append("https://host\(index % 50).example/feed/\(index).xml")
      }
    }
    do {
      let store = try SQLiteSubscriptionStore(path: run.statePath)
      try store.record(
        names.map { source in
          var state = SubscriptionState(source: source)
          state.nextCheckAt = .seconds(
            due.contains(source) ? Self.now - 60 : Self.now + 7 * 86_400)
          return PullOutcome(
            state: state, seenItems: [], sawWholeFeed: false, hostHold: nil,
            now: .seconds(Self.now))
        })
      try store.checkpoint()
    }
    let list = folder.appendingPathComponent("list.txt")
    try (names.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)

    let result = try run.run(["--due", "-i", list.path], now: Self.now)
    #expect(result.status == 0)
    let ends = result.records("end")
    #expect(ends.count == names.count)
    let notDue = ends.filter { $0["skipped"] as? String == "not_due" }
      .compactMap { $0["source"] as? String }
    #expect(notDue == names.filter { !due.contains($0) })
    let pulled = ends.filter { $0["skipped"] == nil }.compactMap { $0["source"] as? String }
    #expect(Set(pulled) == due)
    #expect(result.records("item").count == 2 * due.count)
    // The log was folded into the file and emptied (or removed): no reader held it at the
    // checkpoint.
    let log = try? FileManager.default.attributesOfItem(atPath: run.statePath + "-wal")
    #expect((log?[.size] as? Int ?? 0) == 0)
  }
}
