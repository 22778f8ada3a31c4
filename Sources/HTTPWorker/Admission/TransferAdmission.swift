import FeedPullSupport

/// Which waiting transfer may start next: the worker's admission rules as a value with no
/// sockets, clocks or curl in it, so that they can be tested as a table.
///
/// The rules, in order:
/// - at most `maxInFlight` transfers run at once: time a transfer spends queued inside curl would
///   count against its whole-transfer timeout, so it waits here instead;
/// - at most `maxPerHost` of them to one politeness host (`PoliteHost`);
/// - at least `hostDelay` between two request starts to one politeness host;
/// - otherwise first come, first served, except that a transfer whose host must wait lets
///   transfers to other hosts pass.
///
/// The waiting transfers are kept per host, and the hosts in the order of their oldest waiting
/// transfer, so one decision looks at each host at most once however many transfers wait: 10,000
/// feeds on one host cost the same per decision as one.
struct TransferAdmission<ID: Hashable & Sendable>: Sendable {
  /// The limits, as the worker's configuration gives them.
  struct Limits: Equatable, Sendable {
    var maxInFlight: Int
    var maxPerHost: Int
    var hostDelay: Duration
  }

  /// What the worker should do now.
  enum Decision: Equatable, Sendable {
    /// Start this transfer; it now counts as running.
    case start(ID, host: String)
    /// Something waits for a host's delay: ask again at this time (the worker's one admission
    /// timer), or sooner when a transfer ends.
    case waitUntil(Duration)
    /// Something waits for a running transfer to end.
    case waitForAnEnd
    /// Nothing waits.
    case idle
  }

  /// A host's waiting transfers, with the sequence each was enqueued at.
  private typealias HostQueue = FirstInQueue<(sequence: UInt64, id: ID)>

  let limits: Limits
  private var nextSequence: UInt64 = 0
  private var queues: [String: HostQueue] = [:]
  /// Hosts with waiting transfers, ordered by the sequence of their oldest one.
  private var order: [(sequence: UInt64, host: String)] = []
  private var runningPerHost: [String: Int] = [:]
  /// When each host last had a request start; entries older than the delay are pruned.
  private var lastStart: [String: Duration] = [:]
  private(set) var running = 0
  private(set) var waiting = 0

  init(limits: Limits) {
    self.limits = Limits(
      maxInFlight: max(1, limits.maxInFlight), maxPerHost: max(1, limits.maxPerHost),
      hostDelay: max(.zero, limits.hostDelay))
  }

  /// A transfer asks to start.
  mutating func enqueue(_ id: ID, host: String) {
    let sequence = nextSequence
    nextSequence += 1
    if queues[host]?.isEmpty ?? true {
      insertInOrder(sequence, host)
    }
    queues[host, default: HostQueue()].append((sequence, id))
    waiting += 1
  }

  /// A waiting transfer is cancelled before it started; false when it was not waiting.
  mutating func withdraw(_ id: ID, host: String) -> Bool {
    guard var queue = queues[host], let oldFirst = queue.first?.sequence,
      let place = queue.remove(where: { $0.id == id })
    else { return false }
    let wasFirst = place == 0
    waiting -= 1
    if queue.isEmpty {
      queues[host] = nil
      removeFromOrder(oldFirst)
      return true
    }
    queues[host] = queue
    if wasFirst, let next = queue.first {
      removeFromOrder(oldFirst)
      insertInOrder(next.sequence, host)
    }
    return true
  }

  /// A running transfer to `host` ended, whichever way.
  mutating func finished(host: String) {
    running -= 1
    let count = runningPerHost[host, default: 1] - 1
    runningPerHost[host] = count > 0 ? count : nil
  }

  /// The next step at time `now` (any monotonic clock, the same for every call). A `.start`
  /// counts the transfer as running.
  mutating func next(at now: Duration) -> Decision {
    guard waiting > 0 else { return .idle }
    guard running < limits.maxInFlight else { return .waitForAnEnd }
    pruneStarts(before: now)
    var earliest: Duration?
    for (position, entry) in order.enumerated() {
      let host = entry.host
      if runningPerHost[host, default: 0] >= limits.maxPerHost { continue }
      if let last = lastStart[host], now < last + limits.hostDelay {
        earliest = min(earliest ?? last + limits.hostDelay, last + limits.hostDelay)
        continue
      }
      return start(at: position, host: host, now: now)
    }
    if let earliest { return .waitUntil(earliest) }
    return .waitForAnEnd
  }

  private mutating func start(at position: Int, host: String, now: Duration) -> Decision {
    guard var queue = queues[host], let id = queue.popFirst()?.id else {
      preconditionFailure("a host in order has no queue")
    }
    order.remove(at: position)
    if let next = queue.first {
      queues[host] = queue
      insertInOrder(next.sequence, host)
    } else {
      queues[host] = nil
    }
    waiting -= 1
    running += 1
    runningPerHost[host, default: 0] += 1
    if limits.hostDelay > .zero { lastStart[host] = now }
    return .start(id, host: host)
  }

  private mutating func insertInOrder(_ sequence: UInt64, _ host: String) {
    var low = 0
    var high = order.count
    while low < high {
      let middle = (low + high) / 2
      if order[middle].sequence < sequence { low = middle + 1 } else { high = middle }
    }
    order.insert((sequence, host), at: low)
  }

  private mutating func removeFromOrder(_ sequence: UInt64) {
    if let index = order.firstIndex(where: { $0.sequence == sequence }) {
      order.remove(at: index)
    }
  }

  /// Keeps `lastStart` as small as the hosts that can still be held by it.
  private mutating func pruneStarts(before now: Duration) {
    guard lastStart.count > 2 * order.count + 64 else { return }
    lastStart = lastStart.filter { now < $0.value + limits.hostDelay }
  }
}
