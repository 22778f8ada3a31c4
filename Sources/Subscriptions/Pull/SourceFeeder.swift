import Dispatch
import FeedPull
import FeedPullSupport
import HTTPWorker

/// Starts a run's sources a window at a time instead of all at once, so that a Retry-After
/// received during the run still holds back the sources of that host that have not started:
/// one 429 from a host must not be followed by a request to each of its other feeds. The window
/// (twice the puller's jobs) keeps the worker's transfer slots full.
final class SourceFeeder: Sendable {
  /// A source to pull, and the URL it requests.
  struct Planned: Sendable {
    var state: SubscriptionState
    var url: String
  }

  private struct Queue {
    var pending: [Planned]
    var next = 0
    var running = 0
    var holds: [String: Int64] = [:]
    var finished = false
    var cancelled = false
    var batches: [PullBatch] = []
  }

  private let queue: TSanVisibleMutex<Queue>
  private let done = DispatchSemaphore(value: 0)
  private let window: Int
  private let now: Int64
  private let force: Bool
  /// Starts one source; it must call `sourceEnded()` once that source has its `end`.
  private let launch: @Sendable (Planned, SourceFeeder) -> Void
  /// Ends a source without a request: its host asked to wait until the given time, or (nil)
  /// the run was cancelled before it started.
  private let deferSource: @Sendable (Planned, Int64?) -> Void

  init(
    _ pending: [Planned], window: Int, now: Int64, force: Bool,
    launch: @escaping @Sendable (Planned, SourceFeeder) -> Void,
    deferSource: @escaping @Sendable (Planned, Int64?) -> Void
  ) {
    queue = TSanVisibleMutex(Queue(pending: pending))
    self.window = max(1, window)
    self.now = now
    self.force = force
    self.launch = launch
    self.deferSource = deferSource
  }

  /// Starts the first window and waits until every source has ended.
  func run() {
    fill()
    done.wait()
  }

  /// A host asked to wait (Retry-After) until `until`: its sources not started yet are deferred.
  func hold(_ host: String, until: Int64) {
    queue.withLock { queue in queue.holds[host] = max(queue.holds[host] ?? until, until) }
  }

  /// Remembers a started source's batch, so that `cancel` reaches it.
  func started(_ batch: PullBatch) {
    let cancelled = queue.withLock { queue in
      queue.batches.append(batch)
      return queue.cancelled
    }
    if cancelled { batch.cancel() }
  }

  /// Cancels the run: sources in flight end `cancelled`, sources not started end `cancelled`
  /// without a request. Safe from any thread.
  func cancel() {
    let batches = queue.withLock { queue in
      queue.cancelled = true
      return queue.batches
    }
    batches.forEach { $0.cancel() }
    fill()
  }

  /// One started source has ended: start the next.
  func sourceEnded() {
    queue.withLock { $0.running -= 1 }
    fill()
  }

  private enum Step {
    case start(Planned)
    case deferred(Planned, Int64?)
    case stop
  }

  private func fill() {
    while true {
      let step: Step = queue.withLock { queue in
        if queue.cancelled && queue.next < queue.pending.count {
          queue.next += 1
          return .deferred(queue.pending[queue.next - 1], nil)
        }
        guard queue.running < window, queue.next < queue.pending.count else {
          if queue.running == 0 && queue.next == queue.pending.count && !queue.finished {
            queue.finished = true
            done.signal()
          }
          return .stop
        }
        let planned = queue.pending[queue.next]
        queue.next += 1
        let host = (PoliteHost.key(forURL: planned.url) ?? planned.url)
        if !force, let until = queue.holds[host], until > now {
          return .deferred(planned, until)
        }
        queue.running += 1
        return .start(planned)
      }
      switch step {
      case .start(let planned): launch(planned, self)
      case .deferred(let planned, let until): deferSource(planned, until)
      case .stop: return
      }
    }
  }
}
