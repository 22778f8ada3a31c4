import FeedPullSupport
import Foundation

/// Runs local-source reads on at most `maxWidth` threads, in the order they were added. A thread
/// per source (the first design) started a thousand threads for a thousand files, each only to
/// wait its turn; here a reader thread takes the next read when it finishes one, and waits
/// `linger` for another when none is left before it ends: reads that come one at a time (a
/// `--due` pass whose due files are spread through a long list) would otherwise start and end
/// a thread each (a pass over a million names with a thousand due files started 962). Reading
/// files is CPU work, not waiting: more readers than cores only thrash the caches
/// (bench/README.md), so the width is at most the cores this process may use, counted when the
/// first file is read (counting them reads the cgroup's files: a run that reads no file, as
/// most do, does not pay for it).
final class LocalReaderPool: Sendable {
  private struct State {
    var queue: [@Sendable () -> Void] = []
    var next = 0
    var threads = 0
    /// Threads with nothing to read, waiting for `wake` (or `linger` to pass).
    var idle = 0
    /// The width, once counted.
    var width: Int?
  }

  private let maxWidth: Int
  private let linger: DispatchTimeInterval
  private let state = TSanVisibleMutex(State())
  /// One signal for each idle thread a new read was given to.
  private let wake = DispatchSemaphore(value: 0)

  /// A pool of at most `maxWidth` readers, each ending once it has had nothing to read for
  /// `linger`.
  init(maxWidth: Int, linger: DispatchTimeInterval = .seconds(1)) {
    self.maxWidth = max(1, maxWidth)
    self.linger = linger
  }

  func add(_ read: @escaping @Sendable () -> Void) {
    let (wakeOne, startThread) = state.withLock { state in
      state.queue.append(read)
      if state.idle > 0 {
        state.idle -= 1
        return (true, false)
      }
      let width =
        state.width ?? min(maxWidth, max(1, ProcessInfo.processInfo.activeProcessorCount))
      state.width = width
      guard state.threads < width else { return (false, false) }
      state.threads += 1
      return (false, true)
    }
    if wakeOne { wake.signal() }
    guard startThread else { return }
    let thread = Thread { [self] in
      while true {
        while let read = take() { read() }
        guard stillWanted() else { return }
      }
    }
    thread.name = "feedpull.local"
    thread.start()
  }

  /// The next read, or nil (and one thread more idle) when there is none.
  private func take() -> (@Sendable () -> Void)? {
    state.withLock { state in
      guard state.next < state.queue.count else {
        state.idle += 1
        state.queue.removeAll()
        state.next = 0
        return nil
      }
      let read = state.queue[state.next]
      state.next += 1
      // Reads taken leave the queue (a half at a time): a pool never empty, as a long run
      // keeps it, held every read's closure, and its document's sink and settings, until the
      // end of the run (100,000 local sources: 60 MB).
      if state.next * 2 >= state.queue.count {
        state.queue.removeFirst(state.next)
        state.next = 0
      }
      return read
    }
  }

  /// Waits, idle, for a read to be given to this thread: true when one was, false (and one
  /// thread fewer) when `linger` passed first. Every read given to an idle thread took one from
  /// `idle` and signalled `wake` once; a thread whose wait ends unsignalled leaves by taking
  /// one from `idle` if any is left, and otherwise takes the signal a read is bringing it.
  private func stillWanted() -> Bool {
    if wake.wait(timeout: .now() + linger) == .success { return true }
    let leave = state.withLock { state in
      guard state.idle > 0 else { return false }
      state.idle -= 1
      state.threads -= 1
      return true
    }
    if leave { return false }
    wake.wait()
    return true
  }
}
