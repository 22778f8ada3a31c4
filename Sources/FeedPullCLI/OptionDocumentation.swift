/// The option table of docs/format.md, written from the rows of `OptionTable` (a test checks that
/// the page holds exactly this text between its markers, and rewrites it on request).
enum OptionDocumentation {
  /// The line before the generated table in docs/format.md.
  static let startMarker =
    "<!-- The option table is written from Sources/FeedPullCLI/OptionTable.swift;"
    + " FEEDPULL_REGENERATE_GOLDEN=1 swift test --filter OptionDocumentationTests rewrites it. -->"
  /// The line after it.
  static let endMarker = "<!-- End of the option table. -->"

  /// The Markdown table: each option's synopsis, meaning, default and subcommands.
  static func markdownTable() -> String {
    var lines = ["| option | meaning | default | subcommands |", "| --- | --- | --- | --- |"]
    for row in OptionTable.rows {
      let cells = [
        "`" + row.synopsis.replacingOccurrences(of: "|", with: "\\|") + "`",
        row.meaning.replacingOccurrences(of: "|", with: "\\|"),
        row.defaultText.map { "`\($0)`" } ?? "",
        subcommands(row.commands),
      ]
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `pull, watch`, `state export`, `all`.
  static func subcommands(_ commands: Set<Subcommand>) -> String {
    if commands == OptionTable.everywhere { return "all" }
    var words = Subcommand.allCases.filter { commands.contains($0) && !$0.isState }.map(\.rawValue)
    let states = Subcommand.stateActions.filter(commands.contains)
    if states.count == Subcommand.stateActions.count {
      words.append("state")
    } else if !states.isEmpty {
      words.append("state " + states.map(\.word).joined(separator: "|"))
    }
    return words.joined(separator: ", ")
  }
}
