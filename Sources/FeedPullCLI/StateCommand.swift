import FeedParser
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
        var lines = StandardOutputLines()
        try store.forEachState { state throws(StoreError) in
          // The password in each URL as `***`: the state keeps it, to pull with.
          let state = StateTransfer.passwordsMasked(state)
          let next = state.nextCheckAt == .zero ? "due" : rfc3339(state.nextCheckAt)
          var line = "\(state.source)\t\(next)\t\(state.nextCheckReason?.rawValue ?? "-")"
          line += "\terrors=\(state.errorsInRow)"
          if state.gone { line += "\tgone" }
          if let moved = state.movedTo { line += "\tmoved_to=\(moved)" }
          // For a person, as everything feedpull shows one: a source imported with an escape
          // sequence in it must not act on the terminal.
          try lines.add(TerminalText.safe(line))
        }
        try lines.flush()
      }
      return 0
    } catch {
      printError("feedpull: \(error.message)\n")
      return 1
    }
  }

  /// A moment (since 1970) as RFC 3339 in UTC, whole seconds (written by hand: `String(format:)`
  /// was a fifth of listing a million sources).
  static func rfc3339(_ moment: Duration) -> String {
    FeedDateParser.rfc3339(moment.wholeSeconds)
  }
}
