import CoreFoundation
import Foundation

/// The one door to CoreFoundation: posts work onto a run loop owned by another thread and wakes it.
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
