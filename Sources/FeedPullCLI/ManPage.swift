import FeedPull

/// `feedpull.1`, the manual page, written from the rows of `OptionTable` and a few paragraphs
/// taken from the README (a test checks that the committed file is what this gives, and
/// `man ./feedpull.1` renders it without a warning).
enum ManPage {
  static func render() -> String {
    var page = [
      ".\\\" Written from Sources/FeedPullCLI/OptionTable.swift and ManPage.swift;",
      ".\\\" FEEDPULL_REGENERATE_GOLDEN=1 swift test --filter ManPageTests rewrites it.",
      ".TH FEEDPULL 1 \"\" \"feedpull \(FeedPullVersion.current)\" \"User Commands\"",
      // No hyphenation and a ragged right margin: URLs and option names must read as typed.
      ".nh", ".ad l",
      ".SH NAME",
      "feedpull \\- pull RSS, Atom and JSON feeds and write each item as it is parsed",
      ".SH SYNOPSIS",
    ]
    let synopses = [
      "\\fBfeedpull\\fR [\\fBpull\\fR] [\\fIOPTIONS\\fR] \\fISOURCE\\fR...",
      "\\fBfeedpull watch\\fR [\\fIOPTIONS\\fR] (\\fISOURCE\\fR... | \\fB\\-i\\fR \\fIFILE\\fR)",
      "\\fBfeedpull state list\\fR|\\fBforget\\fR \\fISOURCE\\fR|\\fBexport\\fR|\\fBimport\\fR"
        + " \\fIFILE\\fR [\\fIOPTIONS\\fR]",
    ]
    page += synopses.flatMap { [$0, ".br"] }.dropLast()
    page.append(".SH DESCRIPTION")
    page += paragraphs(description)
    page.append(".SH SUBCOMMANDS")
    for command in Subcommand.allCases {
      page += [".TP", "\\fB\(command.rawValue)\\fR", roff(command.summary)]
    }
    page.append(".SH OPTIONS")
    page += paragraphs([
      "Options take their value as the next argument, attached (`-j16`) or after `=`"
        + " (`--jobs=16`). After `--`, every argument is a SOURCE."
    ])
    for row in OptionTable.rows {
      var names =
        (row.short.map { "\\fB\(escaped($0))\\fR, " } ?? "") + "\\fB\(escaped(row.long))\\fR"
      if row.takesValue { names += " \\fI\(escaped(row.placeholder))\\fR" }
      var text = roff(sentence(row.meaning))
      if let defaultText = row.defaultText { text += " Default: \(roff("`" + defaultText + "`"))." }
      text += " (" + OptionDocumentation.subcommands(row.commands) + ")"
      page += [".TP", names, text]
    }
    for (title, text) in sections {
      page.append(".SH " + title)
      page += paragraphs(text)
    }
    page.append(".SH EXAMPLES")
    for (what, command) in examples {
      page += [".PP", roff(what), ".PP", ".RS 4", ".nf", escaped(command), ".fi", ".RE"]
    }
    page += [
      ".SH SEE ALSO",
      roff("README.md and docs/format.md in feedpull's sources: every record, field and error."),
    ]
    return page.joined(separator: "\n") + "\n"
  }

  private static let description = [
    "feedpull pulls RSS, Atom and JSON feeds over HTTP(S) or from files and writes each item the"
      + " moment its end tag is parsed, while the rest of the feed is still on the wire: for a"
      + " person as text, for a program as JSON Lines (one `feed` record, its `item` records and"
      + " one `end` record per source).",
    "A SOURCE is an `http://` or `https://` URL, a `file://` URL, a path, or `-` for standard"
      + " input; a web page stands for the first feed it links. A SOURCE that names no file but"
      + " reads like a web address without its scheme (`example.com/feed`) is a usage error that"
      + " suggests the URL. With `--state`, feedpull remembers each source between runs and"
      + " writes only new and updated items, each source checked when it is due.",
  ]

  private static let sections: [(String, [String])] = [
    (
      "TIMES AND SIZES",
      [
        "Every time is a number of seconds, fractions allowed (`0.5`), or a number with a unit:"
          + " `ms`, `s`, `m`, `h`, `d` (`500ms`, `0s`, `1.5m`, `2h`, `1d`). Every size is a"
          + " number of bytes, or a number with `K`, `M`, `G` or `KiB`, `MiB`, `GiB` (1024-based:"
          + " `512K`, `64M`, `1.5MiB`)."
      ]
    ),
    (
      "LISTS",
      [
        "`-i FILE` reads an OPML subscription list, or text with one source a line: the line's"
          + " first field (a `# comment` or newsboat's tags after it are ignored; lines starting"
          + " with `#` are skipped). `-i -` reads the list from standard input."
      ]
    ),
    (
      "EXIT STATUS",
      [
        "0 when every source ended ok; 1 when one did not, or the output or the state failed; 2"
          + " for a usage error (nothing is pulled); 130 or 143 after SIGINT or SIGTERM in a pull."
          + " A watch exits 0 after SIGINT or SIGTERM."
      ]
    ),
    (
      "SIGNALS",
      [
        "SIGINT and SIGTERM end a pull: every source not yet ended gets its `end` record with"
          + " `cancelled`, and one line on standard error says how many. A watch ends its"
          + " transfers the same way, saves the state and exits 0. SIGHUP makes a watch read its"
          + " `-i` file again, and reopens the `-o` file in any run, so that a log rotation can"
          + " move it away without `copytruncate`."
      ]
    ),
    (
      "ENVIRONMENT",
      [
        "`FEEDPULL_LEASE`: with `--state`, how long (seconds, default 60) a process's claim on"
          + " a source lasts when the process dies (a live one renews its claims)."
      ]
    ),
  ]

  private static let examples: [(String, String)] = [
    ("Read a feed at a terminal:", "feedpull https://example.com/feed.xml"),
    (
      "Every ten minutes from cron, only what is new and due:",
      "*/10 * * * * feedpull --state ~/.local/share/feedpull/state.db --due -i subscriptions.opml -o items.jsonl"
    ),
    (
      "A service that writes items only, to a file a log rotation may move:",
      "feedpull watch --state /var/lib/feedpull/state.db -i /etc/feedpull/subscriptions.opml -o /var/lib/feedpull/items.jsonl --records item"
    ),
    (
      "Back up a state and restore it elsewhere:",
      "feedpull state export --state state.db > backup.jsonl\nfeedpull state import backup.jsonl --state new.db"
    ),
  ]

  /// Paragraphs, each after `.PP`.
  private static func paragraphs(_ texts: [String]) -> [String] {
    texts.flatMap { [".PP", roff($0)] }
  }

  /// A meaning as a sentence: a capital first letter, a full stop at the end.
  private static func sentence(_ text: String) -> String {
    guard let first = text.first else { return text }
    let capitalised = first.uppercased() + text.dropFirst()
    return capitalised.hasSuffix(".") ? capitalised : capitalised + "."
  }

  /// Text with `code` spans: the spans in bold, everything escaped for roff.
  static func roff(_ text: String) -> String {
    var result = ""
    for (index, part) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
      result +=
        index % 2 == 1
        ? "\\fB" + escaped(String(part)) + "\\fR" : escaped(String(part), prose: true)
    }
    return result
  }

  /// Roff's special characters: backslashes, a period or quote that would start a request, and
  /// hyphens, which in code (option names) must print as the minus sign a shell needs.
  static func escaped(_ text: String, prose: Bool = false) -> String {
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var escaped = line.replacingOccurrences(of: "\\", with: "\\e")
      if !prose { escaped = escaped.replacingOccurrences(of: "-", with: "\\-") }
      if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
      lines.append(escaped)
    }
    return lines.joined(separator: "\n")
  }
}
