import FeedPull
import Subscriptions

/// What a `feedpull` command line asks for, once parsed (`CommandLineParser`, from the rows of
/// `OptionTable`): the subcommand, its operands, and every option's value.
public struct CommandLineOptions: Sendable {
  /// The text format is for a person, JSON Lines for a program.
  public enum Format: String, Sendable {
    case text, jsonl
  }

  /// How much goes to stderr.
  public enum Verbosity: Sendable {
    case quiet, normal, verbose
  }

  /// The kinds of record `--records` may choose.
  public enum RecordKind: String, CaseIterable, Sendable {
    case feed, item, end, stats
  }

  /// `pull` unless the command line names another subcommand (or `--watch`).
  public var command = Subcommand.pull
  /// The SOURCE operands, in order (for `state forget`, the one SOURCE).
  public var sources: [String] = []
  /// `-i FILE`: more sources from FILE; `-` is standard input.
  public var inputFile: String?
  /// `-f`; nil: text on a terminal, else JSON Lines.
  public var format: Format?
  /// `-o FILE`: records appended to FILE instead of standard output.
  public var outputFile: String?
  /// `--records`: the kinds written; all by default.
  public var records = Set(RecordKind.allCases)
  public var pull = FeedPuller.Configuration()
  public var verbosity = Verbosity.normal
  public var showVersion = false
  public var showHelp = false
  /// `--state PATH` and the options that need it.
  public var statePath: String?
  public var subscription = SubscriptionPullOptions()
  /// `state import FILE`: the file to import.
  public var importFile: String?
  /// `state export --opml`: the subscriptions as OPML 2.0 instead of JSON Lines.
  public var opml = false
  /// `--watch` (or `feedpull watch`): run until a signal, pulling each source when it is due.
  public var watch: Bool { command == .watch }
  /// `--stats-interval DURATION`: a `stats` record this often while watching.
  public var statsInterval: Duration?

  /// The defaults of every option.
  public init() {}
}
