import CFeedPullShims
import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A POSIX thread that can be joined: `join()` returns once the thread has ended, its
/// thread-local destructors included.
///
/// Why not Foundation's `Thread`: it cannot be joined, so "the worker has stopped" could only be
/// a signal sent from inside the thread's body, before the thread has really ended. After that
/// signal the thread still runs library code (CoreFoundation finalizes its run loop, OpenSSL and
/// libxml2 free their per-thread state), and a command that exits at that moment runs the same
/// libraries' exit-time clean-up (`OPENSSL_cleanup`, libxml2's `xmlCleanupParser`) beside it:
/// a use after free that corrupted the heap, seen as `malloc_consolidate(): invalid chunk size`
/// once in some hundreds of Ctrl-Cs on a loaded machine (docs/worker.md, "Stopping").
final class JoinableThread: Sendable {
  private let handle: pthread_t
  /// True once joined (or detached): a thread is joined exactly once.
  private let settled = TSanVisibleMutex(false)

  /// Starts `body` on a new thread named `name` (its first 15 bytes show in `top -H` and gdb).
  /// Nil when the system cannot make a thread (out of memory or of threads).
  init?(name: String, body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(
      Body {
        fp_set_thread_name(name)
        body()
      }
    ).toOpaque()
    var handle = pthread_t()
    let started = pthread_create(
      &handle, nil,
      { argument in
        guard let argument else { return nil }
        let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
        body.run()
        return nil
      }, box)
    guard started == 0 else {
      Unmanaged<Body>.fromOpaque(box).release()
      return nil
    }
    self.handle = handle
  }

  deinit {
    // Never joined (the last owner let go on the thread itself): let the system reclaim it.
    settled.withLock { settled in
      if !settled { pthread_detach(handle) }
      settled = true
    }
  }

  /// True when called on this thread, which cannot wait for itself.
  var isCurrent: Bool { pthread_equal(handle, pthread_self()) != 0 }

  /// Waits until the thread has ended. Safe from several threads at once and more than once:
  /// the first caller joins, the others wait for that join. Must not be called on the thread.
  func join() {
    settled.withLock { settled in
      guard !settled else { return }
      pthread_join(handle, nil)
      settled = true
    }
  }

  /// The body, boxed to cross `pthread_create`'s `void *`.
  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
}
