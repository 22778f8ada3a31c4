import CCurl
import CFeedPullShims
import Dispatch
import FeedPullSupport
import Foundation
import Synchronization

/// Turns curl's socket and timer callbacks into run-loop events, without a polling tick.
///
/// - Sockets: curl's socket callback adds, changes or removes fds in one private epoll set
///   (level-triggered). The worker's run loop itself waits on the epoll fd (`RunLoopPortWatch`):
///   when something in the set becomes ready, the loop's own sleep ends and it calls `onReady`,
///   whose drain reads the ready fds with a zero-timeout `epoll_wait` and hands them to curl. The
///   loop reports the set again only when something new is ready, so a drain either empties it
///   (`readyNow` returns nil) or asks for another turn. (A `DispatchSource` watched the set
///   before: each readiness woke libdispatch's manager thread, then a pool thread, then the
///   worker, and the source's resume woke the manager again.)
/// - Timer: one repeating run-loop `Timer` whose `fireDate` is curl's next deadline; distant
///   future when curl has none. It stays attached for the worker's whole life, because a run loop
///   with nothing attached does not sleep on Linux (docs/libraries.md).
///
/// Used on the worker thread only.
final class SocketPump {
  /// One ready fd and the `CURL_CSELECT_*` flags for it.
  struct Readiness {
    var fd: Int32
    var flags: Int32
  }

  private let epollFD: Int32
  private var watched: Set<Int32> = []
  /// Fds curl stopped watching (`CURL_POLL_REMOVE`) and left in the epoll set: a connection kept
  /// alive goes to the next transfer, which watches it again, and a removal and an addition per
  /// transfer were two `epoll_ctl`s (1,372 for 1,000 304s); that next watch is one `EPOLL_CTL_MOD`.
  /// A parked fd that becomes ready (its server closed it) is taken out then, unseen by curl.
  private var parked: Set<Int32> = []
  /// The run loop's watch of the epoll set; nil once torn down.
  private var portWatch: RunLoopPortWatch?
  private let timer: Timer
  /// The timer's fire date as last set.
  private var deadline = Date.distantFuture
  /// curl asked for its timeout at once (a deadline of 0 ms) and the worker has not run it yet.
  private var timeoutNow = false

  /// - Parameters:
  ///   - onReady: called on the worker run loop when some fd in the set is newly ready.
  ///   - onTimer: called on the worker run loop when curl's deadline passes.
  /// Throws when the epoll set cannot be made (out of file descriptors): an embedder's process
  /// must get an error it can report, not a crash.
  init(onReady: @escaping () -> Void, onTimer: @escaping @Sendable () -> Void)
    throws(WorkerStartError)
  {
    epollFD = fp_epoll_create()
    guard epollFD >= 0 else {
      throw WorkerStartError(message: "epoll_create1 failed: \(String(cString: strerror(errno)))")
    }
    // Timer(timeInterval:…) fires at once on Linux; Timer(fire:…) waits (docs/libraries.md). The long
    // interval only keeps the timer attached; `fireDate` is moved to each of curl's deadlines.
    timer = Timer(fire: .distantFuture, interval: 86_400, repeats: true) { _ in onTimer() }
    RunLoop.current.add(timer, forMode: .default)
    portWatch = RunLoopPortWatch(fd: epollFD, onReadable: onReady)
  }

  /// curl's socket callback: what curl wants to hear about `fd` (`CURL_POLL_*`).
  func watch(_ fd: Int32, what: Int32) {
    if what == CURL_POLL_REMOVE {
      if watched.remove(fd) != nil { parked.insert(fd) }
      return
    }
    var events: UInt32 = 0
    if what & CURL_POLL_IN != 0 { events |= EPOLLIN.rawValue }
    if what & CURL_POLL_OUT != 0 { events |= EPOLLOUT.rawValue }
    let wasParked = parked.remove(fd) != nil
    let wasWatched = !watched.insert(fd).inserted
    if wasParked || wasWatched {
      // Never skipped, even for the same events: the fd number may belong to a new socket by
      // now (closing the old one took it out of the set), which the error says.
      if fp_epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, events) != 0, errno == ENOENT {
        _ = fp_epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, events)
      }
    } else if fp_epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, events) != 0, errno == EEXIST {
      // curl closed and reopened the same fd number without a REMOVE in between, or a parked
      // number came back as a new socket.
      _ = fp_epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, events)
    }
  }

  /// Takes a parked fd out of the epoll set: it became ready while no transfer used it.
  private func unpark(_ fd: Int32) {
    parked.remove(fd)
    _ = fp_epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, 0)
  }

  /// curl's timer callback: -1 means no deadline, 0 means as soon as possible. Never calls curl
  /// back directly (curl forbids re-entrant calls from its callbacks). "As soon as possible" is
  /// only noted (`takeTimeoutNow`): the worker runs curl's timeout itself before it returns to
  /// the run loop, which saves a timer move, a turn of the loop and a second move per batch of
  /// added transfers (each added transfer asks for it; 1,000 304s moved the timer 541 times).
  /// The timer keeps the deadline it had, which curl names again if it still holds.
  func setDeadline(milliseconds: Int) {
    if milliseconds == 0 {
      timeoutNow = true
      return
    }
    timeoutNow = false
    move(
      to: milliseconds < 0
        ? .distantFuture : Date(timeIntervalSinceNow: Double(milliseconds) / 1000))
  }

  /// Whether curl asked for its timeout to run at once since the last call; clears the request.
  func takeTimeoutNow() -> Bool {
    defer { timeoutNow = false }
    return timeoutNow
  }

  /// Lets the timer run curl's timeout at the next turn of the run loop: for a request to run
  /// it at once that the worker did not carry out itself.
  func fireSoon() {
    move(to: Date())
  }

  /// Called first thing when the timer fires, so a deadline curl sets meanwhile wins.
  func clearDeadline() {
    move(to: .distantFuture)
  }

  /// Moves the timer, unless it is already set within a millisecond of `date`: each move is a
  /// `timerfd_settime`, and curl asks for the same deadline again and again while a transfer
  /// runs (2,870 moves for 1,000 feeds over HTTP/2 before this check).
  private func move(to date: Date) {
    if abs(date.timeIntervalSince(deadline)) < 0.001 { return }
    deadline = date
    timer.fireDate = date
  }

  /// The fds ready now, without waiting; nil when none is (the set is drained), empty when the
  /// only ones were parked.
  func readyNow() -> [Readiness]? {
    var fds = [Int32](repeating: 0, count: 64)
    var events = [UInt32](repeating: 0, count: 64)
    let count = fp_epoll_wait(epollFD, &fds, &events, 64, 0)
    guard count > 0 else { return nil }
    var ready: [Readiness] = []
    ready.reserveCapacity(Int(count))
    for index in 0..<Int(count) {
      if !parked.isEmpty, parked.contains(fds[index]) {
        unpark(fds[index])
        continue
      }
      var flags: Int32 = 0
      if events[index] & EPOLLIN.rawValue != 0 { flags |= CURL_CSELECT_IN }
      if events[index] & EPOLLOUT.rawValue != 0 { flags |= CURL_CSELECT_OUT }
      if events[index] & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { flags |= CURL_CSELECT_ERR }
      ready.append(Readiness(fd: fds[index], flags: flags))
    }
    return ready
  }

  /// Detaches the timer and the run loop's watch, then closes the epoll fd (the loop no longer
  /// waits on it: the watch is taken out of its set on this same thread).
  func tearDown() {
    timer.invalidate()
    portWatch?.invalidate()
    portWatch = nil
    close(epollFD)
  }
}

@available(*, unavailable) extension SocketPump: Sendable {}
