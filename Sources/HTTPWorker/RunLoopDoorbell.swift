import CoreFoundation
import Foundation

/// The one door to CoreFoundation: posts work onto a run loop owned by another thread and wakes it
/// (and, below, `RunLoopPortWatch`: a descriptor the loop itself waits on).
///
/// Why CoreFoundation at all: on Linux, `RunLoop.perform` from another thread does not wake a
/// sleeping loop (the block waits for some unrelated event), while `CFRunLoopWakeUp` wakes it in
/// well under a millisecond (docs/libraries.md, "Foundation's RunLoop on Linux"). A performed block also
/// does not make `RunLoop.run(mode:before:)` return, so ending the loop needs `CFRunLoopStop`.
/// CoreFoundation is toolchain-internal on Linux, so every use of it stays in this file.
final class RunLoopDoorbell: @unchecked Sendable {
  // @unchecked: a CFRunLoop reference is safe to use from any thread for the three calls made
  // here (perform, wake up, stop); CoreFoundation locks the loop internally.
  private let runLoop: CFRunLoop

  /// The doorbell of the calling thread's run loop.
  init() {
    runLoop = CFRunLoopGetCurrent()
  }

  /// Runs `block` on the loop's thread at its next turn, in the default mode, and wakes the loop.
  func post(_ block: @escaping @Sendable () -> Void) {
    CFRunLoopPerformBlock(runLoop, kCFRunLoopDefaultMode, block)
    CFRunLoopWakeUp(runLoop)
  }

  /// Makes the loop's current `run(mode:before:)` return, so its thread can see that it is done.
  func stopLoop() {
    CFRunLoopStop(runLoop)
  }
}

/// A descriptor the run loop itself waits on: a port source (version 1), whose port is the
/// descriptor, so that the thread's own sleep ends when it becomes readable (no other thread
/// woken to watch it and then wake this one).
///
/// How CoreFoundation treats such a port on Linux (its CFRunLoop.c): it adds the descriptor to the
/// mode's epoll set edge-triggered, and when it is reported it reads eight bytes from it (as from
/// an eventfd; on any other descriptor the read fails and is ignored) and calls `perform`. Being
/// edge-triggered, it reports the descriptor again only once something new makes it readable:
/// whoever drains it must drain it until it is not ready, or post another drain.
final class RunLoopPortWatch {
  // Worker thread only (not Sendable): the source calls back on the loop it was added to.
  private let fd: Int32
  private let onReadable: () -> Void
  private var source: CFRunLoopSource?

  /// Watches `fd` on the calling thread's run loop, default mode; `onReadable` runs there.
  init(fd: Int32, onReadable: @escaping () -> Void) {
    self.fd = fd
    self.onReadable = onReadable
    let info = Unmanaged.passUnretained(self).toOpaque()
    var context = CFRunLoopSourceContext1(
      version: 1, info: info, retain: nil, release: nil, copyDescription: nil, equal: nil,
      hash: nil,
      getPort: { info in
        Unmanaged<RunLoopPortWatch>.fromOpaque(info!).takeUnretainedValue().fd
      },
      perform: { info in
        Unmanaged<RunLoopPortWatch>.fromOpaque(info!).takeUnretainedValue().onReadable()
      })
    let made = withUnsafeMutablePointer(to: &context) { pointer in
      pointer.withMemoryRebound(to: CFRunLoopSourceContext.self, capacity: 1) {
        CFRunLoopSourceCreate(nil, 0, $0)
      }
    }
    source = made
    CFRunLoopAddSource(CFRunLoopGetCurrent(), made, kCFRunLoopDefaultMode)
  }

  /// Stops watching; the descriptor is the caller's to close afterwards. On the loop's thread.
  func invalidate() {
    guard let source else { return }
    CFRunLoopSourceInvalidate(source)
    self.source = nil
  }
}

@available(*, unavailable) extension RunLoopPortWatch: Sendable {}
