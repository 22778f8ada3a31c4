/// What a `feedpull` command line asks for: one pass (`pull`, the default), the long-running
/// worker (`watch`), or a look at the state (`state list|forget|export|import`). Each option row
/// names the subcommands that take it, so the parser, `--help` and the man page agree.
public enum Subcommand: String, CaseIterable, Sendable, Hashable {
  case pull
  case watch
  case stateList = "state list"
  case stateForget = "state forget"
  case stateExport = "state export"
  case stateImport = "state import"

  /// The words that name a subcommand in first position.
  static let names: Set<String> = ["pull", "watch", "state"]

  /// The `state` actions, in the order the help lists them.
  static let stateActions: [Subcommand] = [.stateList, .stateForget, .stateExport, .stateImport]

  /// True for the four `state` actions.
  var isState: Bool { Self.stateActions.contains(self) }

  /// The action word after `state` (`list`), or the subcommand's own name.
  var word: String { rawValue.split(separator: " ").last.map(String.init) ?? rawValue }

  /// The operand the subcommand takes, as the help writes it.
  var operands: String {
    switch self {
    case .pull: "SOURCE..."
    case .watch: "(SOURCE... | -i FILE)"
    case .stateList, .stateExport: ""
    case .stateForget: "SOURCE"
    case .stateImport: "FILE"
    }
  }

  /// The subcommand's line in a usage summary.
  var usage: String {
    let words = ["feedpull", rawValue, "[OPTIONS]", operands].filter { !$0.isEmpty }
    return words.joined(separator: " ")
  }

  /// One line saying what the subcommand is for.
  var summary: String {
    switch self {
    case .pull: "pull each SOURCE once and write its records (the word pull may be left out)"
    case .watch: "keep running: pull each source when it is due, until SIGINT or SIGTERM"
    case .stateList: "one line a source: its next check, why then, errors in a row"
    case .stateForget: "drop a source and the items remembered for it"
    case .stateExport: "the state as JSON Lines, one source a line (--opml: an OPML 2.0 list)"
    case .stateImport: "restore an export, or add the sources of an OPML file or a list"
    }
  }
}
