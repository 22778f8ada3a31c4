/// Reads a `feedpull` command line with the rows of `OptionTable`:
///
///     feedpull [pull] [OPTIONS] SOURCE...
///     feedpull watch [OPTIONS] (SOURCE... | -i FILE)
///     feedpull state list|forget SOURCE|export|import FILE [OPTIONS]
///
/// A subcommand is one only in first position; later, a bare `pull`, `watch` or `state` is a
/// usage error that shows the right order (never a file to pull, nor a subscription to save).
/// Options take their value as the next argument, attached (`-j16`) or after `=` (`--jobs=16`);
/// after `--` every argument is an operand.
enum CommandLineParser {
  static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
    var options = CommandLineOptions()
    var remaining = arguments[...]
    var named: String?
    if let first = remaining.first, Subcommand.names.contains(first) {
      remaining.removeFirst()
      named = first
      options.command = first == "watch" ? .watch : .pull
    }
    var operands: [String] = []
    var given: [OptionRow] = []
    var onlyOperands = false
    while let argument = remaining.popFirst() {
      if onlyOperands || argument == "-" || !argument.hasPrefix("-") {
        if !onlyOperands, Subcommand.names.contains(argument) {
          throw misplaced(argument, in: arguments)
        }
        operands.append(argument)
        continue
      }
      if argument == "--" {
        onlyOperands = true
        continue
      }
      let (name, attached) = split(argument)
      guard let row = OptionTable.row(named: name) else { throw unknown(name) }
      if !row.takesValue {
        if attached != nil { throw UsageError(message: "option \(name) takes no value") }
        try row.apply(&options, "")
      } else {
        guard let value = attached ?? remaining.popFirst() else {
          throw UsageError(
            message: "option \(name) needs a value (for example: \(row.long) \(row.example))")
        }
        try row.apply(&options, value)
      }
      given.append(row)
    }
    if named == "state" {
      // The action may follow options (`feedpull state --state s.db list`): the first operand.
      let action = operands.first.flatMap { word in
        Subcommand.stateActions.first { $0.word == word }
      }
      if action == nil && options.showHelp { return options }  // `feedpull state --help`
      guard let action else {
        throw UsageError(message: "state needs list, forget SOURCE, export, or import FILE")
      }
      operands.removeFirst()
      if options.command == .watch {
        throw UsageError(message: "--watch is the subcommand watch, not an option of state")
      }
      options.command = action
    } else if named == "pull" && options.command == .watch {
      throw UsageError(message: "--watch is the subcommand watch, not an option of pull")
    }
    for row in given where !row.commands.contains(options.command) {
      throw notTaken(row, by: options.command)
    }
    try checkNeedsState(options)
    try assign(operands, to: &options)
    try check(options)
    return options
  }

  /// The operands: sources for `pull` and `watch`, the one SOURCE of `state forget`, the FILE
  /// of `state import`, none for `state list` and `state export`.
  private static func assign(_ operands: [String], to options: inout CommandLineOptions)
    throws(UsageError)
  {
    switch options.command {
    case .pull, .watch:
      if operands.contains("") { throw UsageError(message: "an empty SOURCE") }
      options.sources = operands
    case .stateList, .stateExport:
      guard operands.isEmpty else {
        throw UsageError(message: "\(options.command.usage) takes no \(operands[0])")
      }
    case .stateForget:
      guard operands.count == 1 else {
        throw UsageError(message: "state forget needs one SOURCE: \(Subcommand.stateForget.usage)")
      }
      options.sources = operands
    case .stateImport:
      guard operands.count == 1, !operands[0].isEmpty else {
        throw UsageError(message: "state import needs one FILE: \(Subcommand.stateImport.usage)")
      }
      options.importFile = operands[0]
    }
  }

  /// The options and subcommands that mean nothing without a state.
  private static func checkNeedsState(_ options: CommandLineOptions) throws(UsageError) {
    if options.showHelp || options.showVersion { return }
    if options.statePath == nil {
      let subscription = options.subscription
      for (given, name) in [
        (subscription.onlyDue, "--due"), (subscription.writesSeen, "--all"),
        (subscription.force, "--force"), (options.command.isState, "state"),
        (options.command == .watch, "--watch"),
      ] where given {
        throw UsageError(message: "\(name) needs --state PATH")
      }
    }
  }

  /// Rules between options and operands: standard input once, intervals that nest, a SOURCE.
  private static func check(_ options: CommandLineOptions) throws(UsageError) {
    if options.showHelp || options.showVersion { return }
    if options.inputFile == "-" && options.sources.contains("-") {
      throw UsageError(message: "standard input is the list (-i -): it cannot be a SOURCE too")
    }
    if options.command == .watch && options.sources.contains("-") {
      throw UsageError(message: "--watch cannot read standard input again and again (-)")
    }
    if options.subscription.schedule.minInterval > options.subscription.schedule.maxInterval {
      throw UsageError(message: "--min-interval is longer than --max-interval")
    }
    if !options.pull.allowedNetworks.isEmpty && !options.pull.deniesPrivateAddresses {
      throw UsageError(message: "--allow-net needs --deny-private (it allows what that refuses)")
    }
    // `--due` and `watch` with no SOURCE and no `-i`: every source of the state, when due.
    let stateIsTheList =
      (options.subscription.onlyDue || options.command == .watch) && options.statePath != nil
    if !options.command.isState && !stateIsTheList && options.sources.isEmpty
      && options.inputFile == nil
    {
      throw UsageError(message: "no SOURCE given (use - for standard input)")
    }
  }

  /// `--name=value`, `-jVALUE`, or a bare option.
  private static func split(_ argument: String) -> (String, String?) {
    if argument.hasPrefix("--") {
      guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
      return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
    guard argument.count > 2 else { return (argument, nil) }
    return (String(argument.prefix(2)), String(argument.dropFirst(2)))
  }

  private static func unknown(_ name: String) -> UsageError {
    guard let nearest = NearestName.nearest(to: name, among: OptionTable.names) else {
      return UsageError(message: "unknown option \(name)")
    }
    return UsageError(message: "unknown option \(name); did you mean \(nearest)?")
  }

  /// An option given to a subcommand that does not take it.
  private static func notTaken(_ row: OptionRow, by command: Subcommand) -> UsageError {
    if row.commands == [.watch] { return UsageError(message: "\(row.long) needs --watch") }
    let takers = Subcommand.allCases.filter(row.commands.contains).map { "feedpull \($0.rawValue)" }
    return UsageError(
      message: "\(row.long) is not an option of feedpull \(command.rawValue); it is one of "
        + takers.joined(separator: ", "))
  }

  /// A subcommand's name after options: the message shows the command line in the right order.
  private static func misplaced(_ word: String, in arguments: [String]) -> UsageError {
    var rest = arguments
    if let index = rest.firstIndex(of: word) { rest.remove(at: index) }
    var ordered = ["feedpull", word]
    if word == "state",
      let action = rest.first(where: { word in
        Subcommand.stateActions.contains { $0.word == word }
      }), let index = rest.firstIndex(of: action)
    {
      ordered.append(action)
      rest.remove(at: index)
    }
    let line = (ordered + rest.map(shellQuoted)).joined(separator: " ")
    return UsageError(
      message: "\(word) is a subcommand and comes first (a file named \(word) is ./\(word))",
      suggestion: line)
  }

  /// A word as a shell would need it quoted to mean itself.
  private static func shellQuoted(_ word: String) -> String {
    let plain = word.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=,@%+".contains($0))
    }
    if plain && !word.isEmpty { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
