import FeedPullSupport
import Foundation

/// Runs local-source reads on at most `maxWidth` threads, in the order they were added. A thread
/// per source (the first design) started a thousand threads for a thousand files, each only to
/// wait its turn; here a reader thread takes the next read when it finishes one and ends when
/// none is left. Reading files is CPU work, not waiting: more readers than cores only thrash
/// the caches (bench/README.md), so the width is at most the cores this process may use,
/// counted when the first file is read (counting them reads the cgroup's files: a run that
/// reads no file, as most do, does not pay for it).
final class LocalReaderPool: Sendable {
  private struct State {
    var queue: [@Sendable () -> Void] = []
    var next = 0
    var threads = 0
    /// The width, once counted.
    var width: Int?
  }

  private let maxWidth: Int
  private let state = TSanVisibleMutex(State())

  init(maxWidth: Int) {
    self.maxWidth = max(1, maxWidth)
  }

  func add(_ read: @escaping @Sendable () -> Void) {
    let startThread = state.withLock { state in
      state.queue.append(read)
      let width =
        state.width ?? min(maxWidth, max(1, ProcessInfo.processInfo.activeProcessorCount))
      state.width = width
      guard state.threads < width else { return false }
      state.threads += 1
      return true
    }
    guard startThread else { return }
    let thread = Thread { [self] in
      while let read = take() { read() }
    }
    thread.name = "feedpull.local"
    thread.start()
  }

  /// The next read, or nil (and one thread fewer) when there is none.
  private func take() -> (@Sendable () -> Void)? {
    state.withLock { state in
      guard state.next < state.queue.count else {
        state.threads -= 1
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
}
