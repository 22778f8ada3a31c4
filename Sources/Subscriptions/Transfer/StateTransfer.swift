import FeedPull
import Foundation

/// Saving a state and restoring it, through the public `SubscriptionStore` protocol only, so
/// that it works the same on every store (SQLite, PostgreSQL, an embedder's own):
/// `feedpull state export` (JSON Lines, one source a line, or the subscriptions as OPML 2.0)
/// and `feedpull state import` (such an export, an OPML file, or a list).
public enum StateTransfer {
  /// What an import did.
  public struct ImportSummary: Sendable, Equatable {
    /// Sources whose whole state was restored (replacing what the store had for them).
    public var restored = 0
    /// Sources of an OPML file or a list, registered as new subscriptions (known ones kept).
    public var registered = 0
  }

  /// Calls `line` with each source's export line (JSON, no newline), in source order.
  public static func export(
    _ store: any SubscriptionStore, line: (String) throws(StoreError) -> Void
  ) throws(StoreError) {
    let encoder = JSONEncoder()
    // Sorted names: the same state exports the same bytes every time (a backup can be diffed).
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    try store.forEachStateWithLedger { state, items throws(StoreError) in
      let exported = ExportedSubscription(passwordsMasked(state), items: items)
      guard let data = try? encoder.encode(exported) else {
        throw StoreError(
          message: "cannot encode the state of \(URLPasswordMask.masked(state.source))")
      }
      try line(String(decoding: data, as: UTF8.self))
    }
  }

  /// `state` as it is shown and exported: the password in each of its URLs as `***`. The
  /// state itself keeps it, to pull with; an export restored elsewhere needs it given again
  /// (or kept in a `.netrc`).
  public static func passwordsMasked(_ state: SubscriptionState) -> SubscriptionState {
    var shown = state
    shown.source = URLPasswordMask.masked(state.source)
    shown.movedTo = state.movedTo.map(URLPasswordMask.masked)
    shown.redirectTarget = state.redirectTarget.map(URLPasswordMask.masked)
    return shown
  }

  /// The subscriptions as an OPML 2.0 document: one `outline` a source, its `xmlUrl` the URL
  /// feedpull pulls (an adopted permanent redirect, else the source).
  public static func opml(_ store: any SubscriptionStore) throws(StoreError) -> String {
    var document = ""
    try opml(store) { line throws(StoreError) in document += line + "\n" }
    return document
  }

  /// `opml(_:)` a line at a time (no newline), in source order, so that a state of a million
  /// sources is written without being held (whole, it held 498 MiB).
  public static func opml(
    _ store: any SubscriptionStore, line: (String) throws(StoreError) -> Void
  ) throws(StoreError) {
    for head in [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<opml version=\"2.0\">", "  <head>",
      "    <title>feedpull subscriptions</title>", "  </head>", "  <body>",
    ] {
      try line(head)
    }
    try store.forEachState { state throws(StoreError) in
      let url = OPMLText.escaped(URLPasswordMask.masked(state.requestURL))
      try line("    <outline type=\"rss\" text=\"\(url)\" xmlUrl=\"\(url)\"/>")
    }
    try line("  </body>")
    try line("</opml>")
  }

  /// Sources restored a transaction.
  static let importBatch = 1000

  /// Whether `data` is an export (a JSON object a line, its first character after white
  /// space and a BOM a `{`) rather than an OPML file or a list.
  public static func isExport(_ data: Data) -> Bool {
    String(decoding: data.prefix(4096), as: UTF8.self)
      .drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "{"
  }

  /// Restores `data` into `store`: an export (a JSON object a line) replaces each source's state
  /// and remembered items; an OPML file or a list adds its sources as new subscriptions. `name`
  /// names the input in errors. Nothing is written when the input cannot be read whole.
  public static func importing(_ data: Data, name: String, into store: any SubscriptionStore)
    throws -> ImportSummary
  {
    var summary = ImportSummary()
    guard isExport(data) else {
      let sources = try SubscriptionList.parse(data, name: name)
      try store.register(sources)
      summary.registered = Set(sources).count
      return summary
    }
    let text = String(decoding: data, as: UTF8.self)
    let decoder = JSONDecoder()
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    func restored(_ number: Int) throws -> (SubscriptionState, [RememberedItem])? {
      let line = lines[number]
      guard !line.allSatisfy(\.isWhitespace) else { return nil }
      do {
        return try decoder.decode(ExportedSubscription.self, from: Data(line.utf8)).restored()
      } catch let error as TransferError {
        throw TransferError("\(name), line \(number + 1): \(error.message)")
      } catch let error as DecodingError {
        throw TransferError("\(name), line \(number + 1): \(TransferError.reason(error))")
      }
    }
    // Two passes: every line is read first, so that a bad one stops the import before anything
    // is written, and read again as it is written. Kept between the two, the sources of a
    // million-line export held 1.05 GiB.
    for number in lines.indices { _ = try restored(number) }
    // Written a batch a transaction: a source the store knows is forgotten first (its state and
    // items replaced whole), the batch before it recorded first so that the order holds; a
    // source new to the store needs no forgetting. A transaction for each source's forget and
    // one for its record took a million-line restore into a new state 137 s.
    let now = SubscriptionClock.system.now
    var batch: [PullOutcome] = []
    var batched = Set<String>()
    func flush() throws {
      try store.record(batch)
      batch.removeAll(keepingCapacity: true)
      batched.removeAll(keepingCapacity: true)
    }
    for number in lines.indices {
      guard let (state, items) = try restored(number) else { continue }
      let known = try store.state(of: state.source) != nil
      if known || batched.contains(state.source) {
        try flush()
        _ = try store.forget(state.source)
      }
      batched.insert(state.source)
      batch.append(
        PullOutcome(state: state, seenItems: items, sawWholeFeed: false, hostHold: nil, now: now))
      summary.restored += 1
      if batch.count >= Self.importBatch { try flush() }
    }
    try flush()
    return summary
  }
}

/// Text inside an OPML attribute: the five XML escapes, and line breaks and tabs as character
/// references (an attribute's white space is otherwise normalised away); other C0 controls,
/// which XML 1.0 cannot carry at all, are left out.
enum OPMLText {
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t": result += "&#9;"
      case "\n": result += "&#10;"
      case "\r": result += "&#13;"
      default:
        if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
