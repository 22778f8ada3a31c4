import FeedPull
import Foundation
import Subscriptions

/// A watch's `stats` record: its JSON line (the record conventions: snake_case, RFC 3339, `type`
/// first) and, for the text format, a line a person reads.
enum StatsRecord {
  /// `{"type":"stats","sources":…,"due":…,"in_flight":…,"pulls":…,"items":…,"bytes":…,
  /// "errors":{…},"next_due":…}`, each value encoded by `JSONEncoder`, errors by kind in order.
  static func jsonLine(_ statistics: WatchStatistics) -> [UInt8] {
    let errors = statistics.errors.sorted { $0.key < $1.key }.map {
      "\(encoded($0.key)):\($0.value)"
    }
    var fields = [
      ("type", encoded("stats")), ("sources", "\(statistics.sources)"),
      ("due", "\(statistics.due)"), ("in_flight", "\(statistics.inFlight)"),
      ("pulls", "\(statistics.pulls)"), ("items", "\(statistics.items)"),
      ("bytes", "\(statistics.bytes)"), ("errors", "{" + errors.joined(separator: ",") + "}"),
    ]
    if let next = statistics.nextDue {
      fields.append(("next_due", encoded(StateCommand.rfc3339(next))))
    }
    return Array(("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
  }

  /// `stats: 12 sources (1 due, 2 in flight); since start 40 pulls, 200 items, 1.2 MB, errors
  /// http 2; next check at 18:45`.
  static func textLine(_ statistics: WatchStatistics, now: Int64) -> String {
    var line =
      "stats: \(counted(statistics.sources, "source")) (\(statistics.due) due, "
      + "\(statistics.inFlight) in flight); since start \(counted(statistics.pulls, "pull")), "
      + "\(counted(statistics.items, "item")), \(megabytes(statistics.bytes))"
    let errors = statistics.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    line += errors.isEmpty ? ", no errors" : ", errors " + errors.joined(separator: ", ")
    if let next = statistics.nextDue {
      line += "; next check at " + LocalTime.clock(next.wholeSeconds, today: now)
    }
    return line
  }

  /// `1 item`, `2 items`.
  static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// `1.2 MB` (MiB, one decimal), `0 MB`.
  static func megabytes(_ bytes: Int64) -> String {
    let tenths = (Double(bytes) / 104_857.6).rounded()
    return "\(Int(tenths) / 10).\(Int(tenths) % 10) MB"
  }

  private static func encoded(_ text: String) -> String {
    (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
  }
}
