import Testing

@testable import FeedPullCLI

/// The option table as the parser reads it: every option in every spelling, every bad value a
/// usage error with an example, unknown options with a suggestion, subcommands in their place.
@Suite struct OptionTableTests {
  /// The operands and options that make a command line of `command` complete.
  static func completing(_ row: OptionRow) -> [String] {
    if row.long == "--max-interval" {
      return ["--state", "s.db", "--min-interval", "0.1", "f.xml"]
    }
    if row.long == "--allow-net" { return ["--state", "s.db", "--deny-private", "feed.xml"] }
    if row.commands.contains(.pull) { return ["--state", "s.db", "feed.xml"] }
    if row.commands.contains(.watch) { return ["watch", "--state", "s.db", "feed.xml"] }
    return ["state", "export", "--state", "s.db"]
  }

  /// Good values of a row, in the syntax its kind takes.
  static func goodValues(_ row: OptionRow) -> [String] {
    switch row.syntax {
    case .flag: [""]
    case .duration:
      row.long == "--host-delay"
        ? ["0s", "500ms", "1.5m", "2", "0.25"] : ["500ms", "1.5m", "2h", "1d", "45", "0.5"]
    case .size: ["100", "512K", "64M", "1MiB", "1.5GiB", "2g"]
    case .count: ["1", "16"]
    case .choice(let choices): choices
    case .text: [row.example]
    }
  }

  static func badValues(_ row: OptionRow) -> [String] {
    switch row.syntax {
    case .flag, .text: []
    case .duration:
      ["soon", "-1", "1 m", "5x", "1e3", "", "400d"]
        + (row.long == "--host-delay" ? [] : ["0", "0s"])
    case .size: ["12Q", "-1", "1MB", "1.5", "", "lots"]
    case .count: ["0.5", "-1", "x", "", "1000001"]
    case .choice: ["bogus", ""]
    }
  }

  /// The parsed options as text, the set of record kinds in a fixed order.
  static func comparable(_ options: CommandLineOptions) -> String {
    var options = options
    let records = options.records.map(\.rawValue).sorted()
    options.records = []
    return "\(records) \(options)"
  }

  @Test(arguments: OptionTable.rows.map(\.long))
  func everyOptionParsesInEverySpelling(_ long: String) throws {
    let row = try #require(OptionTable.row(named: long))
    let complete = Self.completing(row)
    let words = complete.prefix { ["watch", "state", "export"].contains($0) }
    let rest = Array(complete.dropFirst(words.count))
    for value in Self.goodValues(row) {
      var spellings: [[String]]
      if row.takesValue {
        spellings = [[row.long, value], ["\(row.long)=\(value)"]]
        if let short = row.short { spellings += [[short, value], [short + value]] }
      } else {
        spellings = [[row.long]] + (row.short.map { [[$0]] } ?? [])
      }
      var parsed: [String] = []
      for spelling in spellings {
        if spelling.last == "" && spelling.count == 1 && spelling[0] == row.short { continue }
        parsed.append(Self.comparable(try CommandLineParser.parse(Array(words) + rest + spelling)))
      }
      #expect(Set(parsed).count == 1, "\(long) \(value): the spellings differ")
      let defaults = Self.comparable(try CommandLineParser.parse(Array(words) + rest))
      let isTheDefault =
        row.defaultText == value
        || (row.syntax == .duration
          && row.defaultText.flatMap(ValueSyntax.duration) == ValueSyntax.duration(value))
      #expect(isTheDefault || parsed.first != defaults, "\(long) \(value) changed nothing")
    }
  }

  @Test(arguments: OptionTable.rows.map(\.long))
  func everyBadValueIsAUsageErrorWithAnExample(_ long: String) throws {
    let row = try #require(OptionTable.row(named: long))
    let complete = Self.completing(row)
    let words = Array(complete.prefix { ["watch", "state", "export"].contains($0) })
    let rest = Array(complete.dropFirst(words.count))
    for value in Self.badValues(row) {
      #expect(throws: UsageError.self, "\(long) \(value)") {
        try CommandLineParser.parse(words + [row.long, value] + rest)
      }
      do {
        _ = try CommandLineParser.parse(words + ["\(row.long)=\(value)"] + rest)
      } catch {
        #expect(
          error.message.contains("for example: \(row.long) \(row.example)"), "\(error.message)")
        // The example itself is good.
        #expect(throws: Never.self) {
          try CommandLineParser.parse(words + [row.long, row.example] + rest)
        }
      }
    }
  }

  /// `--state ""` (a variable that was never set) is a slip, never the working directory.
  @Test(
    arguments: OptionTable.rows.filter { ["FILE", "DIR", "PATH"].contains($0.placeholder) }
      .map(\.long))
  func everyPathOptionRefusesAnEmptyPath(_ long: String) throws {
    let row = try #require(OptionTable.row(named: long))
    let complete = Self.completing(row)
    let words = Array(complete.prefix { ["watch", "state", "export"].contains($0) })
    let rest = Array(complete.dropFirst(words.count))
    #expect(throws: UsageError(message: "\(long) needs a \(row.placeholder), not \"\"")) {
      try CommandLineParser.parse(words + [long, ""] + rest)
    }
  }

  @Test func aBadValueExitsTwo() {
    #expect(FeedpullCommand.main(["--timeout", "2x", "feed.xml"]) == 2)
    #expect(FeedpullCommand.main(["--max-bytes", "1MB", "feed.xml"]) == 2)
    #expect(FeedpullCommand.main(["--jobs"]) == 2)
  }

  @Test func aMissingValueShowsAnExample() {
    #expect(
      throws: UsageError(message: "option --timeout needs a value (for example: --timeout 2m)")
    ) {
      try CommandLineParser.parse(["x.xml", "--timeout"])
    }
  }

  @Test func flagsTakeNoValue() {
    #expect(throws: UsageError(message: "option --due takes no value")) {
      try CommandLineParser.parse(["--due=yes", "--state", "s.db"])
    }
  }

  @Test(arguments: [
    ("--timout", "--timeout"), ("--max-byte", "--max-bytes"), ("--stat", "--state"),
    ("--verbos", "--verbose"), ("--jobz", "--jobs"), ("--recrods", "--records"),
    ("-x", "-A"),
  ])
  func unknownOptionsSuggestTheNearest(_ typed: String, _ nearest: String) {
    do {
      _ = try CommandLineParser.parse([typed, "1", "x.xml"])
      Issue.record("\(typed) parsed")
    } catch {
      #expect(error.message.hasPrefix("unknown option \(typed)"))
      if typed != "-x" {
        #expect(error.message.hasSuffix("did you mean \(nearest)?"), "\(error.message)")
      }
    }
  }

  @Test func farFromEveryNameSuggestsNothing() {
    #expect(throws: UsageError(message: "unknown option --completely-different")) {
      try CommandLineParser.parse(["--completely-different", "x.xml"])
    }
  }

  @Test func subcommandsComeFirst() throws {
    #expect(try CommandLineParser.parse(["x.xml"]).command == .pull)
    #expect(try CommandLineParser.parse(["pull", "x.xml"]).command == .pull)
    #expect(try CommandLineParser.parse(["watch", "--state", "s", "x.xml"]).command == .watch)
    #expect(try CommandLineParser.parse(["--watch", "--state", "s", "x.xml"]).command == .watch)
    #expect(try CommandLineParser.parse(["state", "list", "--state", "s"]).command == .stateList)
    #expect(try CommandLineParser.parse(["state", "--state", "s", "list"]).command == .stateList)
    let forget = try CommandLineParser.parse(["state", "forget", "http://a/", "--state", "s"])
    #expect(forget.command == .stateForget)
    #expect(forget.sources == ["http://a/"])
    let importing = try CommandLineParser.parse(["state", "import", "old.jsonl", "--state", "s"])
    #expect(importing.importFile == "old.jsonl")
    let export = try CommandLineParser.parse(["state", "export", "--opml", "--state", "s"])
    #expect(export.opml)
    // After `--`, a subcommand's name is a file like any other.
    #expect(try CommandLineParser.parse(["--", "state"]).sources == ["state"])
  }

  @Test(arguments: [
    (["--state", "s.db", "state", "list"], "feedpull state list --state s.db"),
    (["-i", "list.txt", "watch"], "feedpull watch -i list.txt"),
    (["a.xml", "pull"], "feedpull pull a.xml"),
    (["--state", "my state.db", "list", "state"], "feedpull state list --state 'my state.db'"),
  ])
  func aSubcommandAfterOptionsShowsTheRightOrder(_ arguments: [String], _ right: String) {
    do {
      _ = try CommandLineParser.parse(arguments)
      Issue.record("\(arguments) parsed")
    } catch {
      #expect(error.suggestion == right)
      #expect(error.message.contains("comes first"))
    }
  }

  @Test func optionsOfAnotherSubcommandAreUsageErrors() {
    #expect(throws: UsageError(message: "--stats-interval needs --watch")) {
      try CommandLineParser.parse(["--stats-interval", "1m", "--state", "s", "x.xml"])
    }
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["--opml", "x.xml"]) }
    #expect(throws: UsageError.self) {
      try CommandLineParser.parse(["state", "list", "--jobs", "3", "--state", "s"])
    }
    #expect(throws: UsageError.self) {
      try CommandLineParser.parse(["state", "list", "--opml", "--state", "s"])
    }
    // `--stats-interval` before `--watch` is fine: the subcommand is known at the end.
    #expect(throws: Never.self) {
      try CommandLineParser.parse(["--stats-interval", "1m", "--watch", "--state", "s", "x.xml"])
    }
  }

  @Test func everyNameIsDeclaredOnce() {
    let names = OptionTable.names
    #expect(Set(names).count == names.count)
    for row in OptionTable.rows {
      #expect(row.long.hasPrefix("--"))
      #expect(row.short.map { $0.count == 2 && $0.hasPrefix("-") } ?? true)
      #expect(!row.commands.isEmpty)
      #expect(!row.help.isEmpty && !row.meaning.isEmpty)
    }
  }

  @Test func intervalsKeepTheirFractions() throws {
    let options = try CommandLineParser.parse(
      ["--min-interval", "500ms", "--max-interval", "1.5m", "--state", "s", "x.xml"])
    #expect(options.subscription.schedule.minInterval == .milliseconds(500))
    #expect(options.subscription.schedule.maxInterval == .seconds(90))
  }
}
