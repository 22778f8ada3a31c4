import FeedPull
import Foundation
import Subscriptions

/// `feedpull`'s command line, as docs/format.md defines it.
struct CommandLineOptions {
  enum Format: String {
    case text, jsonl
  }

  enum Verbosity {
    case quiet, normal, verbose
  }

  var sources: [String] = []
  var inputFile: String?
  var format: Format?
  var pull = FeedPuller.Configuration()
  var verbosity = Verbosity.normal
  var showVersion = false
  var showHelp = false
  /// `--state PATH` and the options that need it.
  var statePath: String?
  var subscription = SubscriptionPullOptions()
  /// `feedpull state list|forget SOURCE|export`: the words after `state`.
  var stateCommand: [String]?
  /// `--watch`: run until a signal, pulling each source when it is due.
  var watch = false
  /// `--stats-interval SECONDS`: a `stats` record this often while watching.
  var statsInterval: Duration?

  /// A usage error: printed on stderr with exit status 2, nothing on stdout.
  struct UsageError: Error {
    var message: String
  }

  init(arguments: [String]) throws(UsageError) {
    var remaining = arguments[...]
    var onlySources = false
    var explicitTrust = false
    if remaining.first == "state" {
      remaining.removeFirst()
      stateCommand = []
    }
    while let argument = remaining.popFirst() {
      if onlySources || argument == "-" || !argument.hasPrefix("-") {
        if stateCommand != nil {
          stateCommand?.append(argument)
          continue
        }
        guard !argument.isEmpty else { throw UsageError(message: "an empty SOURCE") }
        sources.append(argument)
        continue
      }
      if argument == "--" {
        onlySources = true
        continue
      }
      let (name, attached) = CommandLineOptions.split(argument)
      func value() throws(UsageError) -> String {
        if let attached { return attached }
        guard let next = remaining.popFirst() else {
          throw UsageError(message: "option \(name) needs a value")
        }
        return next
      }
      switch name {
      case "-f", "--format":
        let text = try value()
        guard let format = Format(rawValue: text) else {
          throw UsageError(message: "--format must be text or jsonl, not \"\(text)\"")
        }
        self.format = format
      case "-i", "--input": inputFile = try value()
      case "-j", "--jobs":
        pull.maxConcurrentTransfers = try CommandLineOptions.count(name, try value(), minimum: 1)
      case "--per-host":
        pull.maxTransfersPerHost = try CommandLineOptions.count(name, try value(), minimum: 1)
      case "--host-delay":
        pull.hostDelay = try CommandLineOptions.seconds(name, try value(), allowingZero: true)
      case "--timeout": pull.timeout = try CommandLineOptions.seconds(name, try value())
      case "--connect-timeout":
        pull.connectTimeout = try CommandLineOptions.seconds(name, try value())
      case "--max-bytes":
        // Given on the command line, the limit holds for every source, local ones too.
        let limit = try CommandLineOptions.byteCount(name, try value())
        pull.maxNetworkBodyBytes = limit
        pull.maxLocalBodyBytes = limit
      case "--max-redirects":
        pull.maxRedirects = try CommandLineOptions.count(name, try value(), minimum: 0)
      case "-A", "--user-agent": pull.userAgent = try value()
      case "--no-discover": pull.discoversFeeds = false
      case "--state": statePath = try value()
      case "--due": subscription.onlyDue = true
      case "--all": subscription.writesSeen = true
      case "--force": subscription.force = true
      case "--watch": watch = true
      case "--stats-interval":
        statsInterval = try CommandLineOptions.seconds(name, try value())
      case "--min-interval":
        subscription.schedule.minInterval = try CommandLineOptions.duration(name, try value())
      case "--max-interval":
        subscription.schedule.maxInterval = try CommandLineOptions.duration(name, try value())
      case "-q", "--quiet": verbosity = .quiet
      case "-v", "--verbose": verbosity = .verbose
      case "--version": showVersion = true
      case "-h", "--help": showHelp = true
      default:
        guard
          try NetworkPolicyOptions.apply(
            name, value: value, to: &pull, explicitTrust: &explicitTrust)
        else { throw UsageError(message: "unknown option \(name)") }
      }
      if attached != nil && !CommandLineOptions.takesValue(name) {
        throw UsageError(message: "option \(name) takes no value")
      }
    }
    try checkStateOptions()
    try NetworkPolicyOptions.finish(
      &pull, explicitTrust: explicitTrust, environment: ProcessInfo.processInfo.environment)
    let stateIsTheList = subscription.onlyDue && statePath != nil
    if !showHelp && !showVersion && stateCommand == nil && !stateIsTheList && sources.isEmpty
      && inputFile == nil
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

  private static func takesValue(_ name: String) -> Bool {
    [
      "-f", "--format", "-i", "--input", "-j", "--jobs", "--timeout", "--connect-timeout",
      "--max-bytes", "--max-redirects", "-A", "--user-agent", "--per-host", "--host-delay",
      "--state", "--min-interval", "--max-interval", "--stats-interval",
    ].contains(name) || NetworkPolicyOptions.valued.contains(name)
  }

  /// `--due`, `--all` and `--force` mean nothing without a state; the intervals must nest.
  private func checkStateOptions() throws(UsageError) {
    if statePath == nil {
      for (given, name) in [
        (subscription.onlyDue, "--due"), (subscription.writesSeen, "--all"),
        (subscription.force, "--force"), (stateCommand != nil, "state"), (watch, "--watch"),
      ] where given {
        throw UsageError(message: "\(name) needs --state PATH")
      }
    }
    if watch && sources.contains("-") {
      throw UsageError(message: "--watch cannot read standard input again and again (-)")
    }
    if statsInterval != nil && !watch {
      throw UsageError(message: "--stats-interval needs --watch")
    }
    if subscription.schedule.minInterval > subscription.schedule.maxInterval {
      throw UsageError(message: "--min-interval is longer than --max-interval")
    }
    if let command = stateCommand {
      switch command.first {
      case "list" where command.count == 1, "export" where command.count == 1: break
      case "forget" where command.count == 2: break
      default: throw UsageError(message: "state needs list, forget SOURCE, or export")
      }
    }
  }

  /// Seconds, or a number with s, m, h or d (`15m`, `24h`).
  private static func duration(_ name: String, _ text: String) throws(UsageError) -> Int64 {
    let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
    var digits = Substring(text)
    var multiplier: Int64 = 1
    if let last = digits.last, let unit = units[last] {
      multiplier = unit
      digits = digits.dropLast()
    }
    guard let value = Int64(digits), value > 0, value <= 365 * 86_400 / multiplier else {
      throw UsageError(message: "\(name) needs a duration such as 900, 15m or 24h, not \"\(text)\"")
    }
    return value * multiplier
  }

  private static func count(_ name: String, _ text: String, minimum: Int) throws(UsageError) -> Int
  {
    guard let value = Int(text), value >= minimum, value <= 1_000_000 else {
      throw UsageError(message: "\(name) needs a whole number ≥ \(minimum), not \"\(text)\"")
    }
    return value
  }

  /// Seconds, fractions allowed (`0.5`), as a `Duration`.
  private static func seconds(_ name: String, _ text: String, allowingZero: Bool = false)
    throws(UsageError) -> Duration
  {
    guard let value = Double(text), value.isFinite, allowingZero ? value >= 0 : value > 0,
      value <= 86_400 * 365
    else {
      let what = allowingZero ? "number of seconds ≥ 0" : "positive number of seconds"
      throw UsageError(message: "\(name) needs a \(what), not \"\(text)\"")
    }
    return .milliseconds(Int64((value * 1000).rounded()))
  }

  /// `N`, `NK`, `NM`, `NG` (1024, 1024², 1024³).
  private static func byteCount(_ name: String, _ text: String) throws(UsageError) -> Int64 {
    let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = Substring(text)
    var multiplier: Int64 = 1
    if let last = digits.last, let unit = units[Character(last.uppercased())] {
      multiplier = unit
      digits = digits.dropLast()
    }
    guard let value = Int64(digits), value >= 0,
      value <= Int64.max / multiplier
    else {
      throw UsageError(message: "\(name) needs a byte count such as 512K or 64M, not \"\(text)\"")
    }
    return value * multiplier
  }

  static let help = """
    usage: feedpull [OPTIONS] SOURCE...

    Pulls RSS, Atom and JSON feeds and prints each item as soon as it is parsed.
    A SOURCE is an http(s):// URL, a file:// URL, a path, or - for standard input; a web page
    stands for the first feed it links (feed discovery).

    options:
      -f, --format text|jsonl    output format (default: text on a terminal, else jsonl)
      -i, --input FILE           more sources: an OPML file, or one source a line (# comments)
      -j, --jobs N               transfers in flight at once (default 8)
          --timeout SECONDS      limit on one source's whole transfer (default 30)
          --connect-timeout S    limit on connecting (default 10)
          --max-bytes N          body limit after decompression, K/M/G suffixes (default 64M
                                 for network sources, none for files and standard input)
          --max-redirects N      redirects followed (default 5)
          --per-host N           transfers in flight to one site (default 2)
          --host-delay SECONDS   least time between request starts to one site (default 1)
      -A, --user-agent S         User-Agent header (default feedpull/\(FeedPullVersion.current))
          --no-discover          report a web page's feeds instead of pulling the first
          --state PATH           keep state between runs in a SQLite file: validators, items
                                 already delivered (only new and updated ones are written),
                                 the schedule; created when missing. A postgresql:// URI
                                 keeps it in PostgreSQL, shared by many workers (--due)
          --due                  with --state: pull only the sources whose next check is due
                                 (with no SOURCE and no -i: every due source of the state)
          --all                  with --state: also write items already delivered (seen)
          --force                with --state: pull gone sources and hosts that asked to wait
          --watch                with --state: keep running, pulling each source when it is
                                 due, until SIGINT or SIGTERM (SIGHUP re-reads -i FILE)
          --stats-interval S     with --watch: a "stats" record every S seconds
          --min-interval D       shortest interval between checks (default 15m; s/m/h/d)
          --max-interval D       longest interval between checks (default 24h)
    \(NetworkPolicyOptions.help)
      -q, --quiet                nothing on stderr but usage errors
      -v, --verbose              one line on stderr per source as it ends
          --version              print the version
      -h, --help                 print this help

    feedpull state list|forget SOURCE|export --state PATH
                                 see or edit the state (export: JSON Lines, one per source)

    exit status: 0 every source ok, 1 some source failed, 2 usage error; a watch ends
    with 0 on SIGINT or SIGTERM, 1 when standard output or the state fails.
    """
}
