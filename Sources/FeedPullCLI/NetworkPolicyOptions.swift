import FeedPull

/// The network policy's options (docs/security.md): trust, downgrades, addresses, local
/// sources, credentials. Kept apart from the other options so that they move into the option
/// table as one block.
enum NetworkPolicyOptions {
  /// The options that take a value.
  static let valued: Set<String> = ["--cacert", "--capath", "--allow-net", "--netrc-file"]

  /// The help lines for these options.
  static let help = """
          --cacert FILE          trust the CAs in this PEM bundle instead of the system's
          --capath DIR           trust the CAs in this hashed directory instead
                                 (default: CURL_CA_BUNDLE, SSL_CERT_DIR or SSL_CERT_FILE as
                                 curl reads them, else the system's bundle)
      -k, --insecure             do not verify certificates (warns once; never for a service)
          --allow-downgrade      follow redirects from https to http (refused by default)
          --deny-private         refuse to connect to loopback, private, link-local and other
                                 special addresses, on every redirect and discovered feed
          --allow-net CIDR       with --deny-private, allow this range (repeatable)
          --network-only         refuse local sources: paths, file: URLs, - (and in -i lists)
          --netrc                credentials from ~/.netrc for hosts whose URL has none
          --netrc-file FILE      the same from FILE
    """

  /// Applies option `name` (with `value()` for its value) to `pull`; false when `name` is not
  /// one of these options.
  static func apply(
    _ name: String, value: () throws(CommandLineOptions.UsageError) -> String,
    to pull: inout FeedPuller.Configuration, explicitTrust: inout Bool
  ) throws(CommandLineOptions.UsageError) -> Bool {
    switch name {
    case "--cacert":
      pull.trust.caFile = try value()
      explicitTrust = true
    case "--capath":
      pull.trust.caDirectory = try value()
      explicitTrust = true
    case "-k", "--insecure": pull.trust.verifiesPeer = false
    case "--allow-downgrade": pull.allowsDowngrade = true
    case "--deny-private": pull.deniesPrivateAddresses = true
    case "--allow-net":
      let text = try value()
      guard let network = IPNetwork(text) else {
        throw CommandLineOptions.UsageError(
          message: "--allow-net needs an address range such as 10.0.0.0/8 or fd00::/8, "
            + "not \"\(text)\"")
      }
      pull.allowedNetworks.append(network)
    case "--network-only": pull.networkOnly = true
    case "--netrc": pull.netrc = pull.netrc ?? .home
    case "--netrc-file": pull.netrc = .file(try value())
    default: return false
    }
    return true
  }

  /// Checks what only makes sense together, and reads curl's CA variables when neither
  /// `--cacert` nor `--capath` was given.
  static func finish(
    _ pull: inout FeedPuller.Configuration, explicitTrust: Bool,
    environment: [String: String]
  ) throws(CommandLineOptions.UsageError) {
    if !pull.allowedNetworks.isEmpty && !pull.deniesPrivateAddresses {
      throw CommandLineOptions.UsageError(message: "--allow-net needs --deny-private")
    }
    if let byte = RequestHeaderCheck.forbiddenByte(in: pull.userAgent) {
      throw CommandLineOptions.UsageError(
        message: RequestHeaderError(header: "User-Agent (-A)", byte: byte).description)
    }
    if !explicitTrust && pull.trust.verifiesPeer {
      pull.trust = TLSTrust.fromEnvironment(environment)
    }
  }

  /// The one warning `-k` gives per run.
  static let insecureWarning =
    "feedpull: warning: --insecure: TLS certificates are not verified; anyone on the path can "
    + "read and change what is pulled\n"
}
