import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM as events, not as a handler: the signals are ignored at the process level
/// and watched by dispatch sources (which read them through signalfd-like machinery), so the
/// code that runs is ordinary Swift on a queue, never inside an async-signal context. The first
/// signal cancels the run; its exit status is then 128 + the signal's number (130, 143), as
/// shells report a process ended by it.
final class InterruptSignals {
  private let received = ReceivedSignal()
  /// Kept for the run's life: a released source stops watching.
  private let sources: [any DispatchSourceSignal]

  /// Starts watching; `onSignal` runs once, on a dispatch queue, at the first signal.
  init(onSignal: @escaping @Sendable () -> Void) {
    let queue = DispatchQueue(label: "feedpull.signals")
    var sources: [any DispatchSourceSignal] = []
    let received = received
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        if received.first(number) { onSignal() }
      }
      source.activate()
      sources.append(source)
    }
    // A one-shot run has no list to re-read: SIGHUP must not end it.
    signal(SIGHUP, SIG_IGN)
    self.sources = sources
  }

  /// The exit status a signal asks for (130 for SIGINT, 143 for SIGTERM), or nil if none came.
  var exitStatus: Int32? {
    received.number.map { 128 + $0 }
  }
}

/// The first signal's number, set once from the signal queue.
private final class ReceivedSignal: Sendable {
  private let value = Atomic<Int32>(0)

  /// Records `number` if no signal came before; true when this was the first.
  func first(_ number: Int32) -> Bool {
    value.compareExchange(expected: 0, desired: number, ordering: .relaxed).exchanged
  }

  var number: Int32? {
    let number = value.load(ordering: .relaxed)
    return number == 0 ? nil : number
  }
}
