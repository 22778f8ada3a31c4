import FeedPull
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// `feedpull state list|forget SOURCE --state PATH`: what the state holds, for a person (the
/// caller opens the store: a location with no state is an error, and nothing is created there).
enum StateCommand {
  static func run(_ words: [String], store: any SubscriptionStore) -> Int32 {
    do {
      switch words.first {
      case "forget":
        if try store.forget(words[1]) {
          try store.checkpoint()
          return 0
        }
        printError("feedpull: \(words[1]) is not in the state\n")
        return 1
      default:
        try store.forEachState { state in
          // The password in each URL as `***`: the state keeps it, to pull with.
          let state = StateTransfer.passwordsMasked(state)
          let next = state.nextCheckAt == .zero ? "due" : rfc3339(state.nextCheckAt)
          var line = "\(state.source)\t\(next)\t\(state.nextCheckReason?.rawValue ?? "-")"
          line += "\terrors=\(state.errorsInRow)"
          if state.gone { line += "\tgone" }
          if let moved = state.movedTo { line += "\tmoved_to=\(moved)" }
          FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
      }
      return 0
    } catch {
      printError("feedpull: \(error.message)\n")
      return 1
    }
  }

  /// A moment (since 1970) as RFC 3339 in UTC, whole seconds.
  static func rfc3339(_ moment: Duration) -> String {
    var time = time_t(moment.wholeSeconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
  }
}
