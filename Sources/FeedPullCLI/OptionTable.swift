import FeedPull

/// Every option of `feedpull`, one row each: the parser reads these rows, and `--help`, the man
/// page (`feedpull.1`) and the option table of docs/format.md are written from them (a test
/// checks that the committed files are what the rows give). Adding an option is adding a row.
enum OptionTable {
  /// The subcommands that pull.
  static let pulling: Set<Subcommand> = [.pull, .watch]
  /// The `state` actions.
  static let state = Set(Subcommand.stateActions)
  /// Every subcommand.
  static let everywhere = Set(Subcommand.allCases)

  static let rows: [OptionRow] = [
    .choice(
      "--format", "-f", ["text", "jsonl"], default: "text on a terminal, else jsonl",
      for: pulling, help: "output format",
      meaning: "the output format: text for people, JSON Lines for programs"
    ) { $0.format = CommandLineOptions.Format(rawValue: $1) },
    .path(
      "--input", "-i", placeholder: "FILE", example: "subscriptions.opml", for: pulling,
      help: "more sources: OPML, or one a line (- stdin)",
      meaning: "more sources from FILE (`-`: standard input): an OPML subscription list, or one"
        + " source a line, its first field (what follows white space, such as a `# comment` or"
        + " newsboat's tags, is ignored; lines starting with `#` are skipped)"
    ) { options, path in options.inputFile = path },
    .path(
      "--output", "-o", placeholder: "FILE",
      example: "/var/lib/feedpull/items.jsonl", for: pulling,
      help: "append the records to FILE (SIGHUP reopens it)",
      meaning: "append the records to FILE, created when missing, instead of standard output"
        + " (`-`); SIGHUP reopens it, so that a log rotation can move it away"
    ) { options, path in options.outputFile = path == "-" ? nil : path },
    .text(
      "--records", placeholder: "LIST", default: "all", example: "item",
      for: pulling, help: "which of feed,item,end,stats to write",
      meaning: "the kinds of record written, comma-separated from `feed`, `item`, `end`, `stats`"
    ) { options, list throws(UsageError) in
      var kinds = Set<CommandLineOptions.RecordKind>()
      for word in list.split(separator: ",", omittingEmptySubsequences: false) {
        guard let kind = CommandLineOptions.RecordKind(rawValue: String(word)) else {
          throw UsageError(
            message: "--records takes kinds from feed,item,end,stats, not \"\(list)\""
              + " (for example: --records item)")
        }
        kinds.insert(kind)
      }
      options.records = kinds
    },
    .count(
      "--jobs", "-j", default: 8, minimum: 1, for: pulling, help: "transfers in flight at once"
    ) { $0.pull.maxConcurrentTransfers = $1 },
    .count(
      "--per-host", default: 2, minimum: 1, for: pulling,
      help: "transfers in flight to one site at once"
    ) { $0.pull.maxTransfersPerHost = $1 },
    .duration(
      "--host-delay", default: .seconds(1), example: "500ms", for: pulling,
      help: "least time between request starts to one site",
      meaning: "least time between two request starts to one site; 0s turns it off"
    ) { $0.pull.hostDelay = $1 },
    .duration(
      "--timeout", default: .seconds(30), example: "2m", minimum: .milliseconds(1), for: pulling,
      help: "limit on one source's whole transfer",
      meaning: "limit on one source's whole transfer, connecting included"
    ) { $0.pull.timeout = $1 },
    .duration(
      "--connect-timeout", default: .seconds(10), example: "5s", minimum: .milliseconds(1),
      for: pulling, help: "limit on connecting"
    ) { $0.pull.connectTimeout = $1 },
    .size(
      "--max-bytes", default: "64M (network)", example: "16MiB", for: pulling,
      help: "body limit after decompression",
      meaning: "a body larger than SIZE, counted after decompression, is cut off there and the"
        + " source fails with `too_large`. Given, it holds for every source; by default only for"
        + " network sources (a local file or standard input is read whole)"
    ) { options, limit in
      // Given on the command line, the limit holds for every source, local ones too.
      options.pull.maxNetworkBodyBytes = limit
      options.pull.maxLocalBodyBytes = limit
    },
    .count(
      "--max-redirects", default: 5, minimum: 0, for: pulling,
      help: "redirects followed (0: a 3xx fails)",
      meaning: "redirects followed; with 0 a redirect fails with `redirects`"
    ) { $0.pull.maxRedirects = $1 },
    .text(
      "--user-agent", "-A", placeholder: "TEXT", default: "feedpull/<version>",
      example: "\"reader/1.0 (+https://example.com/)\"", for: pulling,
      help: "the User-Agent header"
    ) { options, text throws(UsageError) in
      // A CR, LF or NUL byte would end the header line and smuggle what follows into the
      // request (docs/security.md): refused here, before any request.
      if let byte = RequestHeaderCheck.forbiddenByte(in: text) {
        throw UsageError(
          message: RequestHeaderError(header: "User-Agent (-A)", byte: byte).description)
      }
      options.pull.userAgent = text
    },
    .flag(
      "--no-discover", for: pulling, help: "a web page lists its feeds, pulls none",
      meaning: "an HTML page is not followed to its first feed: the source ends `not_a_feed` and"
        + " its `end` lists the feeds the page links"
    ) { $0.pull.discoversFeeds = false },
    .choice(
      "--html", nil, ["safe", "raw", "text"], default: "safe", for: pulling,
      help: "HTML in text fields: sanitized, as given, or plain text",
      meaning: "what becomes of HTML in titles, descriptions, summaries and content: sanitized"
        + " with relative URIs resolved (`safe`), as the feed gives it (`raw`), or plain text"
        + " with the type `text/plain` (`text`)"
    ) { $0.pull.html = HTMLMode(rawValue: $1) ?? .safe },
    // The network policy (docs/security.md): what a service pulling URLs it did not choose sets.
    .path(
      "--cacert", placeholder: "FILE", example: "/etc/feedpull/ca.pem",
      for: pulling, help: "trust this PEM bundle's CAs, not the system's",
      meaning: "trust the certificate authorities of this PEM bundle instead of the system's"
        + " store; without `--cacert` and `--capath`, `CURL_CA_BUNDLE`, else `SSL_CERT_DIR`, else"
        + " `SSL_CERT_FILE` is read, as curl's command reads them"
    ) { options, path in options.pull.trust.caFile = path },
    .path(
      "--capath", placeholder: "DIR", example: "/etc/feedpull/ca.d", for: pulling,
      help: "trust this hashed directory's CAs instead",
      meaning: "trust the certificate authorities of this directory (hashed, as `openssl rehash`"
        + " makes it) instead of the system's store"
    ) { options, path in options.pull.trust.caDirectory = path },
    .flag(
      "--insecure", "-k", for: pulling, help: "verify no certificate (warns; never a service)",
      meaning: "do not verify certificates or host names: anyone on the path can read and change"
        + " what is pulled; one warning on stderr per run"
    ) { $0.pull.trust.verifiesPeer = false },
    .flag(
      "--allow-downgrade", for: pulling, help: "follow https to http redirects",
      meaning: "follow a redirect from https to http, which is refused with `protocol` by"
        + " default; even then, `--state` never adopts it"
    ) { $0.pull.allowsDowngrade = true },
    .flag(
      "--deny-private", for: pulling, help: "no loopback, private, link-local address",
      meaning: "refuse to connect to loopback, private, link-local, shared, unique-local,"
        + " unspecified, multicast and broadcast addresses and their IPv4-mapped forms, however"
        + " the URL spelled them, on every redirect and discovered feed: `denied`"
    ) { $0.pull.deniesPrivateAddresses = true },
    .text(
      "--allow-net", placeholder: "CIDR", example: "10.20.0.0/16", repeatable: true,
      for: pulling, help: "with --deny-private, allow this range",
      meaning: "with `--deny-private`, allow this address range (or one address); repeatable"
    ) { options, text throws(UsageError) in
      guard let network = IPNetwork(text) else {
        throw UsageError(
          message: "--allow-net needs an address range, not \"\(text)\"; for example: "
            + "--allow-net 10.20.0.0/16")
      }
      options.pull.allowedNetworks.append(network)
    },
    .flag(
      "--network-only", for: pulling, help: "refuse local sources (paths, file:, -)",
      meaning: "refuse local sources (paths, `file:` URLs, `-`, also in `-i` lists): `denied`"
    ) { $0.pull.networkOnly = true },
    .flag(
      "--netrc", for: pulling, help: "credentials from ~/.netrc",
      meaning: "read credentials for hosts whose URL has none from `~/.netrc`, as curl does"
    ) { options in if options.pull.netrc == nil { options.pull.netrc = .home } },
    .path(
      "--netrc-file", placeholder: "FILE", example: "/etc/feedpull/netrc", for: pulling,
      help: "credentials from FILE", meaning: "the same as `--netrc`, from FILE"
    ) { options, path in options.pull.netrc = .file(path) },
    .path(
      "--state", placeholder: "PATH", example: "~/.local/share/feedpull/state.db",
      for: everywhere, help: "state between runs: SQLite or postgresql://",
      meaning: "keep what feedpull learns about each source between runs (validators, the items"
        + " already written, the schedule) in a SQLite file at PATH, created when missing, or in"
        + " PostgreSQL for a `postgresql://` URI, shared by many workers"
    ) { options, path in options.statePath = path },
    .flag(
      "--due", for: pulling, help: "only sources whose next check has come",
      meaning: "with `--state`: pull only the sources whose next check has come; with no SOURCE"
        + " and no `-i`, every due source of the state (a watch always does)"
    ) { $0.subscription.onlyDue = true },
    .flag(
      "--all", for: pulling, help: "also items already written (status seen)",
      meaning: "with `--state`: write the items already written before too, with `status` `seen`"
    ) { $0.subscription.writesSeen = true },
    .flag(
      "--force", for: pulling, help: "also gone sources and hosts that asked to wait",
      meaning: "with `--state`: pull sources that are gone (410) and sources whose site asked to"
        + " wait (Retry-After)"
    ) { $0.subscription.force = true },
    .duration(
      "--min-interval", default: .seconds(15 * 60), example: "30m", minimum: .milliseconds(1),
      for: pulling, help: "shortest time between two checks of a source",
      meaning: "with `--state`: the shortest time between two checks of a source"
    ) { $0.subscription.schedule.minInterval = $1 },
    .duration(
      "--max-interval", default: .seconds(86_400), example: "12h", minimum: .milliseconds(1),
      for: pulling, help: "longest time between two checks (and backoff)",
      meaning: "with `--state`: the longest time between two checks, also the cap of the error"
        + " backoff"
    ) { $0.subscription.schedule.maxInterval = $1 },
    .flag(
      "--watch", for: [.pull, .watch], help: "the same as the subcommand watch",
      meaning: "another spelling of `feedpull watch`"
    ) { $0.command = .watch },
    .duration(
      "--stats-interval", default: nil, example: "10m", minimum: .milliseconds(1), for: [.watch],
      help: "a stats record this often",
      meaning: "a `stats` record this often (in the text format, a line on stderr)"
    ) { $0.statsInterval = $1 },
    .flag(
      "--opml", for: [.stateExport], help: "the subscriptions as OPML 2.0",
      meaning: "write the subscriptions as an OPML 2.0 list instead of JSON Lines"
    ) { $0.opml = true },
    .flag(
      "--quiet", "-q", for: everywhere, help: "nothing on stderr but usage errors"
    ) { $0.verbosity = .quiet },
    .flag(
      "--verbose", "-v", for: everywhere, help: "a line on stderr per source, and more",
      meaning: "a line on stderr per source as it ends, failed or not; in text, a heading for a"
        + " source that wrote nothing"
    ) { $0.verbosity = .verbose },
    .flag("--version", for: everywhere, help: "print the version") { $0.showVersion = true },
    .flag("--help", "-h", for: everywhere, help: "print this help") { $0.showHelp = true },
  ]

  /// The row named `name` (`--jobs` or `-j`).
  static func row(named name: String) -> OptionRow? {
    rowsByName[name]
  }

  private static let rowsByName: [String: OptionRow] = {
    var byName: [String: OptionRow] = [:]
    for row in rows {
      byName[row.long] = row
      if let short = row.short { byName[short] = row }
    }
    return byName
  }()

  /// Every name an option may be written with, for the nearest-name suggestion.
  static var names: [String] { rows.flatMap { [$0.long] + ($0.short.map { [$0] } ?? []) } }
}
