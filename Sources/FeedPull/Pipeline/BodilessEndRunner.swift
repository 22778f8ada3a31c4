/// Where the end of a transfer that brought no body (a 304, an error before any byte) is carried
/// out: a subscription run takes such ends on the worker thread itself when it can do so without
/// waiting, so that an unchanged source costs no hand-over between threads (a 304's end, handed
/// to the run's queue, woke a pool thread and then the worker again for the next start: half of
/// the context switches of an unchanged pass).
package protocol BodilessEndRunner: Sendable {
  /// Runs `work`, now on the calling thread (the worker's) if the runner is free, or later
  /// elsewhere, in order with the runner's other work. Called on the worker thread: it must
  /// never wait, and what it runs now must be short and never wait either (no store call).
  func runEnd(_ work: @escaping @Sendable () -> Void)
}
