import FeedPull
import Foundation
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// What `pull` and `watch` both set up before they run, in an order that keeps a usage error
/// free of side effects: the sources first (a bad `-i` or a web address without its scheme is
/// a usage error, and no state file is created), then the state, while the puller starts.
struct PreparedRun {
  /// The sources, each once, kept compactly (a list of a million lines stays small).
  let listed: SourceList
  let store: (any SubscriptionStore)?
  let puller: FeedPuller

  /// The exit status when preparing failed, its message already on stderr.
  struct Failure: Error {
    var status: Int32
  }

  static func prepare(_ options: CommandLineOptions) throws(Failure) -> PreparedRun {
    let listed: SourceList
    do {
      listed = try SourceInputs.gatherList(options)
    } catch {
      throw Failure(status: FeedpullCommand.report(error))
    }
    // A reader that goes away (`feedpull … | head`) must end the run, not kill it mid-write
    // with SIGPIPE; curl's own sockets are safe either way (CURLOPT_NOSIGNAL).
    signal(SIGPIPE, SIG_IGN)
    var configuration = options.pull
    if configuration.trust == TLSTrust() {
      // Neither --cacert, --capath nor -k: the CA variables, as curl's command reads them.
      configuration.trust = TLSTrust.fromEnvironment(environmentVariable)
    }
    // Started now, so that curl's set-up overlaps the state's opening; stopped again if that
    // fails, before anything is pulled.
    let startup = PullerStartup(configuration)
    var store: (any SubscriptionStore)?
    if let path = options.statePath {
      do {
        store = try openStore(path)
      } catch {
        printError("feedpull: \(error.message)\n")
        startup.abandon()
        throw Failure(status: 1)
      }
    }
    if options.verbosity == .verbose, let note = LibXMLVersion.note {
      printError("feedpull: \(note)\n")
    }
    if !configuration.trust.verifiesPeer && options.verbosity != .quiet {
      printError(
        "feedpull: warning: --insecure: TLS certificates are not verified; anyone on the path"
          + " can read and change what is pulled\n")
    }
    do {
      return PreparedRun(listed: listed, store: store, puller: try startup.wait())
    } catch {
      printError("feedpull: cannot start: \(error.message)\n")
      throw Failure(status: 1)
    }
  }
}
