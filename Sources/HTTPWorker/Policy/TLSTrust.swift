/// Which certificate authorities the worker trusts for https.
///
/// A CA file or directory replaces the system's store (a private CA is trusted instead of the
/// public ones, never beside them by accident). Without one, the system's bundle is used, the
/// one libcurl was built with (`/etc/ssl/certs/ca-certificates.crt` on Debian).
///
/// The store is parsed once per worker: libcurl 7.87+ (OpenSSL) keeps the parsed store in the
/// multi handle and reuses it for every new connection, but only when it comes from a file
/// alone. Debian's libcurl also names a default CA directory, which turns that cache off (every
/// connection parsed the whole bundle again), so the worker names no directory unless asked to.
public struct TLSTrust: Sendable, Hashable {
  /// A PEM bundle of the CAs to trust (`--cacert`).
  public var caFile: String?
  /// A directory of hashed CA certificates, as `c_rehash` or `openssl rehash` makes (`--capath`).
  public var caDirectory: String?
  /// False turns certificate and host name verification off (`-k, --insecure`): anyone on the
  /// path may then read and change what is pulled. Never the default.
  public var verifiesPeer = true

  /// The system's store, verified.
  public init() {}

  /// A store from a file or a directory (nil for the system's).
  public init(caFile: String? = nil, caDirectory: String? = nil, verifiesPeer: Bool = true) {
    self.caFile = caFile
    self.caDirectory = caDirectory
    self.verifiesPeer = verifiesPeer
  }

  /// The trust the curl command would use with neither `--cacert` nor `--capath`: from
  /// `CURL_CA_BUNDLE`, else `SSL_CERT_DIR`, else `SSL_CERT_FILE` (the first set wins; the
  /// others are then not read), else the system's. libcurl reads none of these itself.
  public static func fromEnvironment(_ environment: [String: String]) -> TLSTrust {
    fromEnvironment { environment[$0] }
  }

  /// The same, reading each variable through `variable` (`getenv`, without copying the whole
  /// environment as `ProcessInfo.environment` does).
  public static func fromEnvironment(_ variable: (String) -> String?) -> TLSTrust {
    func value(_ name: String) -> String? {
      variable(name).flatMap { $0.isEmpty ? nil : $0 }
    }
    if let bundle = value("CURL_CA_BUNDLE") { return TLSTrust(caFile: bundle) }
    if let directory = value("SSL_CERT_DIR") { return TLSTrust(caDirectory: directory) }
    if let file = value("SSL_CERT_FILE") { return TLSTrust(caFile: file) }
    return TLSTrust()
  }
}

/// Where HTTP credentials may come from besides the URL: a `.netrc` file, as curl's `--netrc`
/// and `--netrc-file` read it (`machine HOST login USER password SECRET`). A user name and
/// password in the URL win over the file, so that one list can mix hosts.
public enum NetrcUse: Sendable, Hashable {
  /// `$HOME/.netrc`.
  case home
  /// The file at this path.
  case file(String)
}
