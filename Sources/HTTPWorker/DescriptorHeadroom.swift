import Foundation

/// Checks, before a worker thread is started, that the process has file descriptors to spare.
///
/// A new thread's run loop is made by CoreFoundation on first use, and CoreFoundation stops the
/// whole process (an illegal instruction) when it cannot get the eventfd, epoll and timerfd it
/// needs; libdispatch does the same for its own. Neither failure can be caught from Swift, so an
/// embedder whose process is near its descriptor limit would lose the process to a library call.
/// Opening and closing a few descriptors first turns that into an error the caller can handle.
/// It is a check, not a reservation: a descriptor freed here can be taken by another thread
/// before the worker's run loop takes it, but a process that close to its limit fails on the
/// next socket anyway.
enum DescriptorHeadroom {
  /// What a worker needs before its first transfer: the run loop's eventfds, epoll sets and
  /// timerfd (6), the socket pump's epoll set, libdispatch's first source (3), curl's wake-up
  /// socket pair (2), with room for the first connection's socket and DNS.
  static let neededByWorker = 24

  /// Throws unless `count` descriptors can be opened now.
  static func check(_ count: Int = neededByWorker) throws(WorkerStartError) {
    var opened: [Int32] = []
    defer { opened.forEach { _ = close($0) } }
    for _ in 0..<count {
      let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        throw WorkerStartError(
          message: "out of file descriptors (\(String(cString: strerror(errno))))")
      }
      opened.append(fd)
    }
  }
}
