import Dispatch
import FeedPullSupport
import Foundation
import Synchronization

/// One thread with its own run loop that alone owns libcurl: every curl call, and every delegate
/// call, happens on it. Other threads talk to it through a locked inbox and a run-loop wake-up.
///
/// Life cycle: `init` starts the thread and returns once its run loop is ready; `stop()` (or
/// `deinit`) cancels every transfer, tears curl down on the thread and waits for it to end.
/// See docs/worker.md for the design and the measurements behind it.
public final class ConnectionWorker: Sendable {
  /// The worker's limits. The per-host ones count by politeness host (`PoliteHost`: the
  /// registrable domain), because that is the unit a site's operator rate-limits.
  public struct Configuration: Sendable {
    /// Transfers in flight at once; the rest wait in the worker's queue, outside curl.
    public var maxInFlight = 8
    /// Transfers in flight to one host at once. Two, as browsers' old per-server limit and
    /// most crawlers' politeness rules have it: a feed reader never needs more from one site.
    public var maxPerHost = 2
    /// The least time between two request starts to one host, so that a list of a hundred feeds
    /// on one site does not arrive as a burst.
    public var hostDelay: Duration = .seconds(1)
    /// Which certificate authorities https servers must chain to.
    public var trust = TLSTrust()
    /// Which addresses connections may be opened to (every redirect hop included).
    public var addressPolicy = AddressPolicy()
    /// Follow redirects from https to http; refused (`protocol`) by default.
    public var allowsDowngrade = false
    /// Credentials from a `.netrc` file for hosts whose URL carries none; nil reads none.
    public var netrc: NetrcUse?
    /// The defaults: 8 transfers in flight, 2 to one host, 1 s between request starts to one
    /// host; the system's CAs, every address, no downgrades, no `.netrc`.
    public init() {}
  }

  private let inbox = WorkerInbox()
  private let nextID = Atomic<UInt64>(1)
  /// Joined by `stop()`: the thread has ended, its thread-local clean-up included, before
  /// `stop()` returns, so the process may exit right after (`JoinableThread`).
  private let thread: JoinableThread
  /// Counts curl calls per thread; tests use it to prove the one-thread rule held.
  let audit: CurlThreadAudit

  /// Starts the worker thread and returns once its run loop is ready. Throws when the thread
  /// cannot set up its sockets or curl (the process is out of file descriptors, say).
  public init(configuration: Configuration = Configuration()) throws(WorkerStartError) {
    try DescriptorHeadroom.check()
    let startup = WorkerStartup()
    let inbox = inbox
    let thread = JoinableThread(name: "feedpull.worker") {
      let loop: WorkerLoop
      do throws(WorkerStartError) {
        loop = try WorkerLoop(configuration: configuration, inbox: inbox)
      } catch {
        startup.failed(error)
        return
      }
      startup.ready(loop.audit)
      // Run until `stop` tears curl down. The pump's timer stays attached the whole time, so
      // `run` sleeps instead of returning at once (docs/libraries.md).
      while !loop.isDone {
        _ = RunLoop.current.run(mode: .default, before: .distantFuture)
      }
    }
    guard let thread else {
      throw WorkerStartError(message: "cannot start the worker thread")
    }
    self.thread = thread
    do {
      audit = try startup.waitUntilReady()
    } catch {
      thread.join()
      throw error
    }
  }

  deinit {
    stop()
  }

  /// Queues a transfer; its delegate is called on the worker thread. Safe from any thread.
  /// After `stop()`, the delegate gets `didFail(.cancelled)` at once, on the calling thread.
  @discardableResult
  public func add(_ request: TransferRequest, delegate: sending any TransferDelegate) -> TransferID
  {
    let id = TransferID(rawValue: nextID.wrappingAdd(1, ordering: .relaxed).oldValue)
    let handoff = DelegateHandoff(delegate: delegate)
    inbox.transferAdded()
    if !inbox.submit(.add(id, request, handoff)) {
      inbox.transferEnded()
      let error = TransferError(kind: .cancelled, message: "worker stopped")
      handoff.delegate.transfer(id, didFail: error, summary: TransferSummary())
    }
    return id
  }

  /// Cancels a queued or running transfer: it fails with `cancelled` unless it already ended.
  /// Safe from any thread. Once this returns, no new delegate call for `id` starts other than
  /// that `didFail`; a chunk being delivered on the worker thread at this moment may complete.
  public func cancel(_ id: TransferID) {
    inbox.submit(.cancel(id))
  }

  /// Resumes a transfer whose delegate answered `.pause`; the held bytes are delivered again.
  /// Safe from any thread; does nothing unless the transfer is paused when the worker gets to it.
  public func resume(_ id: TransferID) {
    inbox.submit(.resume(id))
  }

  /// Blocks until no transfer is queued or running (every delegate has ended), or until
  /// `timeout` seconds pass; true when idle. Do not call it from a delegate.
  public func waitUntilIdle(timeout: Double) -> Bool {
    inbox.waitUntilIdle(deadline: Date(timeIntervalSinceNow: timeout))
  }

  /// Cancels everything, tears curl down on the worker thread and waits until the thread has
  /// ended: when this returns, no code of the worker's runs any more, its libraries' per-thread
  /// clean-up included, and the process may exit. Safe from any thread and more than once; from
  /// a delegate (the worker thread itself) it only starts the shutdown, since the thread cannot
  /// wait for itself.
  public func stop() {
    inbox.submit(.stop)
    guard !thread.isCurrent else { return }
    thread.join()
  }
}

/// Hands the worker thread's audit (or why it could not start) to `init`, which waits until the
/// thread's run loop is ready.
private final class WorkerStartup: Sendable {
  private let outcome = TSanVisibleMutex<Result<CurlThreadAudit, WorkerStartError>?>(nil)
  private let signal = DispatchSemaphore(value: 0)

  func ready(_ value: CurlThreadAudit) {
    outcome.withLock { $0 = .success(value) }
    signal.signal()
  }

  func failed(_ error: WorkerStartError) {
    outcome.withLock { $0 = .failure(error) }
    signal.signal()
  }

  func waitUntilReady() throws(WorkerStartError) -> CurlThreadAudit {
    signal.wait()
    switch outcome.withLock({ $0 }) {
    case .success(let audit): return audit
    case .failure(let error): throw error
    case nil: throw WorkerStartError(message: "the worker thread ended before it was ready")
    }
  }
}
