import FeedPull
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull state export [--opml]` and `feedpull state import FILE`: a state saved as JSON
/// Lines (or its subscriptions as OPML) on standard output, and restored from such an export,
/// an OPML file or a list (`-`: standard input). The formats are the Subscriptions library's.
enum StateTransferCommand {
  static func export(_ store: any SubscriptionStore, opml: Bool) -> Int32 {
    var lines = StandardOutputLines()
    do {
      if opml {
        try StateTransfer.opml(store) { line throws(StoreError) in try lines.add(line) }
      } else {
        try StateTransfer.export(store) { line throws(StoreError) in try lines.add(line) }
      }
      try lines.flush()
    } catch {
      printError("feedpull: \(error.message)\n")
      return 1
    }
    return 0
  }

  static func importing(_ path: String, into store: any SubscriptionStore, quiet: Bool) -> Int32 {
    let summary: StateTransfer.ImportSummary
    do {
      let data = try SubscriptionList.contents(of: path)
      let name = path == "-" ? "standard input" : path
      if let hint = try addressWithoutScheme(in: data, name: name) {
        return FeedpullCommand.report(hint)
      }
      summary = try StateTransfer.importing(data, name: name, into: store)
    } catch let error as SubscriptionList.ReadError {
      return FeedpullCommand.report(UsageError(message: error.description))
    } catch let error as TransferError {
      return FeedpullCommand.report(UsageError(message: error.message))
    } catch {
      printError("feedpull: \(error)\n")
      return 1
    }
    if !quiet {
      var parts: [String] = []
      if summary.restored > 0 || summary.registered == 0 {
        parts.append("\(StatsRecord.counted(summary.restored, "source")) restored")
      }
      if summary.registered > 0 {
        parts.append("\(StatsRecord.counted(summary.registered, "source")) subscribed")
      }
      printError("feedpull: \(parts.joined(separator: ", "))\n")
    }
    return 0
  }

  /// A list's first source that names no file but reads like a web address without its scheme
  /// (`example.com/feed`): a usage error that suggests the URL, before anything is subscribed,
  /// as a pull of that list gives (subscribed as it is, it failed as a missing file every run).
  /// Nil for an export (JSON Lines), whose sources are what a state held.
  private static func addressWithoutScheme(in data: Data, name: String)
    throws(SubscriptionList.ReadError) -> UsageError?
  {
    guard !StateTransfer.isExport(data) else { return nil }
    for source in try SubscriptionList.parse(data, name: name) {
      if let hint = SourceInputs.addressHint(for: source, to: "subscribe to it on the web") {
        return hint
      }
    }
    return nil
  }
}
