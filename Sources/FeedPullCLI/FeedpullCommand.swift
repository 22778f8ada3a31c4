import FeedPull
import Subscriptions

/// `feedpull`'s entry point: parses the command line (`CommandLineParser`), then hands it to
/// the subcommand's own small type. Nothing else happens here.
public enum FeedpullCommand {
  /// Runs the command line `arguments` (without the program's name); returns the exit status.
  public static func main(_ arguments: [String]) -> Int32 {
    let options: CommandLineOptions
    do {
      options = try CommandLineParser.parse(arguments)
    } catch {
      return report(error)
    }
    if options.showHelp {
      let command = arguments.first == "state" ? Subcommand.stateList : options.command
      print(HelpText.render(for: command), terminator: "")
      return 0
    }
    if options.showVersion {
      print("feedpull \(FeedPullVersion.current)")
      return 0
    }
    switch options.command {
    case .pull: return PullCommand.run(options)
    case .watch: return runWatch(options)
    case .stateList, .stateForget, .stateExport, .stateImport: return runState(options)
    }
  }

  /// A usage error on stderr, with the right spelling when there is one; exit status 2.
  static func report(_ error: UsageError) -> Int32 {
    var message = "feedpull: \(error.message)\n"
    if let suggestion = error.suggestion { message += "  \(suggestion)\n" }
    printError(message + "Try 'feedpull --help'.\n")
    return 2
  }

  /// `feedpull watch`: the same set-up as a pull, then the watch of the library.
  private static func runWatch(_ options: CommandLineOptions) -> Int32 {
    do {
      let prepared = try PreparedRun.prepare(options)
      guard let store = prepared.store else { return 2 }
      return WatchCommand(
        StatePullCommand(
          options: options, sources: prepared.listed, store: store, puller: prepared.puller)
      ).run()
    } catch {
      return error.status
    }
  }

  /// `feedpull state …`: the store named by `--state`, then the action.
  private static func runState(_ options: CommandLineOptions) -> Int32 {
    guard let path = options.statePath else { return 2 }
    // Only `import` may create a state; `list` and `export` only read, so they work on a file
    // this user may not write.
    let store: any SubscriptionStore
    do {
      store = try openStore(
        path, create: options.command == .stateImport,
        readOnly: options.command == .stateList || options.command == .stateExport)
    } catch {
      printError("feedpull: \(error.message)\n")
      return error.kind == .noState ? 2 : 1
    }
    switch options.command {
    case .stateForget: return StateCommand.run(["forget"] + options.sources, store: store)
    case .stateExport: return StateTransferCommand.export(store, opml: options.opml)
    case .stateImport:
      return StateTransferCommand.importing(
        options.importFile ?? "-", into: store, quiet: options.verbosity == .quiet)
    default: return StateCommand.run(["list"], store: store)
    }
  }
}
