import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// The signals of a watch, as events on a dispatch queue (never code in a signal handler, as
/// with `InterruptSignals`): SIGINT and SIGTERM stop it, SIGHUP asks it to re-read its list.
final class WatchSignals {
  /// Kept for the watch's life: a released source stops watching.
  private let sources: [any DispatchSourceSignal]

  init(onStop: @escaping @Sendable () -> Void, onReload: @escaping @Sendable () -> Void) {
    let queue = DispatchQueue(label: "feedpull.watch-signals")
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM, SIGHUP] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler(handler: number == SIGHUP ? onReload : onStop)
      source.activate()
      sources.append(source)
    }
    self.sources = sources
  }
}
