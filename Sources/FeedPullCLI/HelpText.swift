import FeedPull

/// `feedpull --help`, `feedpull watch --help`, `feedpull state --help`: written from the rows of
/// `OptionTable`, so that every option is listed once with its value syntax and default, and each
/// subcommand's help fits one screen (at most 50 lines of at most 80 columns, which a test checks).
enum HelpText {
  /// The width every line fits.
  static let columns = 80

  /// The help of the subcommand's family: `pull`, `watch`, or the four `state` actions.
  static func render(for command: Subcommand) -> String {
    let family: [Subcommand] = command.isState ? Subcommand.stateActions : [command]
    var lines = ["usage: " + family.map(usage).joined(separator: "\n       "), ""]
    lines += wrap(description(of: command), width: columns)
    lines.append("")
    lines.append(command.isState ? "options of state:" : "options of \(command.rawValue):")
    let rows = OptionTable.rows.filter { !$0.commands.isDisjoint(with: family) }
    let synopses = rows.map { ($0.short == nil ? "    " : "") + $0.synopsis }
    let synopsisWidth = min(30, synopses.map(\.count).max() ?? 0)
    for (row, synopsis) in zip(rows, synopses) {
      var help = row.help
      if command.isState, !Set(family).isSubset(of: row.commands) {
        let actions = family.filter(row.commands.contains).map(\.word)
        help = actions.joined(separator: ", ") + ": " + help
      }
      if let defaultText = row.defaultText, !defaultText.isEmpty { help += " [\(defaultText)]" }
      lines += option(synopsis, help, synopsisWidth: synopsisWidth)
    }
    lines.append("")
    lines += footer(for: command)
    return lines.joined(separator: "\n") + "\n"
  }

  private static func usage(_ command: Subcommand) -> String {
    switch command {
    case .pull: "feedpull [pull] [OPTIONS] SOURCE..."
    case .watch: "feedpull watch [OPTIONS] (SOURCE... | -i FILE)"
    default: command.usage
    }
  }

  private static func description(of command: Subcommand) -> String {
    switch command {
    case .pull:
      "Pulls each SOURCE once and writes each item as soon as it is parsed. A SOURCE is an"
        + " http(s):// URL, a file:// URL, a path, or - for standard input; a web page stands"
        + " for the first feed it links. Other subcommands: feedpull watch --help, feedpull"
        + " state --help."
    case .watch:
      "Runs until SIGINT or SIGTERM (also as feedpull --watch): pulls each source when it is"
        + " due and writes its new and updated items. SIGHUP reads -i FILE again and reopens"
        + " -o FILE."
    default:
      "Shows, edits, saves and restores what a state (--state PATH) holds; pulls nothing."
    }
  }

  private static func footer(for command: Subcommand) -> [String] {
    var lines: [String] = []
    if !command.isState {
      lines.append(
        "Times: seconds (0.5) or 500ms, 30s, 1.5m, 2h, 1d. Sizes: bytes or 512K, 64M, 1GiB"
          + " (1024-based).")
    }
    switch command {
    case .pull:
      lines.append("Exit status: 0 every source ok, 1 some failed, 2 usage error, 130/143 signal.")
    case .watch:
      lines.append("Exit status: 0 after SIGINT or SIGTERM, 1 when output or state fails, 2 usage.")
    default:
      lines.append("Exit status: 0 done, 1 the state failed, 2 usage error or no such state.")
    }
    return lines.flatMap { wrap($0, width: columns) }
  }

  /// One option: its synopsis, then its help in a column, wrapped within the width.
  private static func option(_ synopsis: String, _ help: String, synopsisWidth: Int) -> [String] {
    let indent = 2 + synopsisWidth + 2
    let lead = "  " + synopsis
    let helpLines = wrap(help, width: columns - indent)
    guard lead.count + 2 <= indent else {
      return [lead] + helpLines.map { String(repeating: " ", count: indent) + $0 }
    }
    var lines: [String] = []
    for (index, line) in helpLines.enumerated() {
      let start = index == 0 ? lead : ""
      lines.append(start + String(repeating: " ", count: indent - start.count) + line)
    }
    return lines
  }

  /// Words of `text` in lines of at most `width` characters.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
