import CCurl
import CFeedPullShims
import Dispatch
import FeedPullSupport
import Foundation
import Synchronization

/// Turns curl's socket and timer callbacks into run-loop events, without a polling tick.
///
/// - Sockets: curl's socket callback adds, changes or removes fds in one private epoll set
///   (level-triggered). One `DispatchSource` watches the epoll fd; when it becomes readable the
///   source suspends itself and asks the worker run loop to drain (`onReady`). The drain reads
///   the ready fds with a zero-timeout `epoll_wait`, hands them to curl, then resumes the source.
/// - Timer: one repeating run-loop `Timer` whose `fireDate` is curl's next deadline; distant
///   future when curl has none. It stays attached for the worker's whole life, because a run loop
///   with nothing attached does not sleep on Linux (docs/libraries.md).
///
/// Used on the worker thread only, except the source's event handler (see `ReadSourceGate`).
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
  private let gate: ReadSourceGate
  private let timer: Timer
  /// The timer's fire date as last set.
  private var deadline = Date.distantFuture
  /// curl asked for its timeout at once (a deadline of 0 ms) and the worker has not run it yet.
  private var timeoutNow = false

  /// - Parameters:
  ///   - onReady: called on the source's queue when some fd is ready; must post a drain.
  ///   - onTimer: called on the worker run loop when curl's deadline passes.
  /// Throws when the epoll set cannot be made (out of file descriptors): an embedder's process
  /// must get an error it can report, not a crash.
  init(onReady: @escaping @Sendable () -> Void, onTimer: @escaping @Sendable () -> Void)
    throws(WorkerStartError)
  {
    epollFD = fp_epoll_create()
    guard epollFD >= 0 else {
      throw WorkerStartError(message: "epoll_create1 failed: \(String(cString: strerror(errno)))")
    }
    gate = ReadSourceGate(fd: epollFD, onReady: onReady)
    // Timer(timeInterval:…) fires at once on Linux; Timer(fire:…) waits (docs/libraries.md). The long
    // interval only keeps the timer attached; `fireDate` is moved to each of curl's deadlines.
    timer = Timer(fire: .distantFuture, interval: 86_400, repeats: true) { _ in onTimer() }
    RunLoop.current.add(timer, forMode: .default)
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

  /// The fds ready now, without waiting.
  func readyNow() -> [Readiness] {
    var fds = [Int32](repeating: 0, count: 64)
    var events = [UInt32](repeating: 0, count: 64)
    let count = fp_epoll_wait(epollFD, &fds, &events, 64, 0)
    guard count > 0 else { return [] }
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

  /// Lets the source report readiness again after a drain.
  func rearm() {
    gate.resume()
  }

  /// Detaches the timer and cancels the source; the epoll fd is closed once the cancellation is
  /// complete, never while the source may still watch it (docs/libraries.md).
  func tearDown() {
    timer.invalidate()
    gate.cancel()
  }
}

/// The dispatch read source on the epoll fd, with its suspend/resume balance kept under a lock.
///
/// The event handler runs on a private queue and suspends the source until the worker has
/// drained; the worker resumes it. Cancellation may race with a handler in progress, and
/// libdispatch traps when a suspended source is released, so suspension state and cancellation
/// are decided under one lock.
private final class ReadSourceGate: Sendable {
  private struct State {
    var suspended = false
    var cancelled = false
  }

  /// Not Sendable as a type, but every call made on it here (`suspend`, `resume`, `cancel`) is
  /// one libdispatch makes thread-safe; their balance is what the lock keeps.
  nonisolated(unsafe) private let source: any DispatchSourceRead
  private let state = TSanVisibleMutex(State())

  init(fd: Int32, onReady: @escaping @Sendable () -> Void) {
    let queue = DispatchQueue(label: "feedpull.worker.epoll")
    source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
    source.setEventHandler { [weak self] in
      guard let self, self.suspendForDrain() else { return }
      onReady()
    }
    source.setCancelHandler { close(fd) }
    source.activate()
  }

  /// True when the handler should post a drain; false once cancelled.
  private func suspendForDrain() -> Bool {
    state.withLock { state in
      guard !state.cancelled, !state.suspended else { return false }
      state.suspended = true
      source.suspend()
      return true
    }
  }

  /// Resumes outside the lock: a resumed source may run its handler at once on another
  /// thread, which would otherwise wait for this one to let go of the lock (measured: about
  /// 1% of the process's CPU time in contended locking over HTTP/2). The balance still holds:
  /// a `cancel` in between sees `suspended` false and leaves the one resume to this call.
  func resume() {
    let resumes = state.withLock { state in
      guard state.suspended else { return false }
      state.suspended = false
      return true
    }
    if resumes { source.resume() }
  }

  func cancel() {
    state.withLock { state in
      guard !state.cancelled else { return }
      state.cancelled = true
      source.cancel()
      if state.suspended {
        state.suspended = false
        source.resume()
      }
    }
  }
}

@available(*, unavailable) extension SocketPump: Sendable {}
