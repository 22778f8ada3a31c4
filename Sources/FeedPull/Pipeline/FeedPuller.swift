import Dispatch
import FeedPullSupport
import Foundation
import HTTPWorker
import Synchronization

/// Pulls sources into a record sink or an async sequence: http(s) URLs through one
/// `ConnectionWorker` (one thread with its own run loop that alone owns libcurl), files and
/// standard input on reader threads, every body through its own streaming parser, so that each
/// item is handed over the moment it is parsed.
///
/// ```swift
/// let puller = try FeedPuller()
/// let ends = await puller.pull([PullSource("https://example.com/feed.xml")], into: mySink)
/// await puller.shutdown()
/// ```
///
/// One puller serves any number of pulls, at once or one after another; its limits
/// (`Configuration`) hold across all of them. Shut it down once, when done.
public final class FeedPuller: Sendable {
  /// The limits and politeness every pull of this puller follows.
  public let configuration: Configuration
  let worker: ConnectionWorker
  /// Reads files and standard input, at most `jobs` at once and no more than there are cores.
  let localReaders: LocalReaderPool
  private let running = Atomic<Int>(0)

  /// Sources started and not yet ended, across every batch.
  public var activeSources: Int { running.load(ordering: .acquiring) }

  /// Starts the connection worker. Throws `WorkerStartError` when it cannot (the process is out
  /// of file descriptors, or libcurl cannot initialise), or when the configuration's
  /// `userAgent` holds a CR, LF or NUL byte (it would smuggle headers into every request): the
  /// caller's process carries on.
  public init(configuration: Configuration = Configuration()) throws(WorkerStartError) {
    do throws(RequestHeaderError) {
      try RequestHeaderCheck.checkValue(configuration.userAgent, of: "User-Agent")
    } catch {
      throw WorkerStartError(message: error.description)
    }
    self.configuration = configuration
    var workerConfiguration = ConnectionWorker.Configuration()
    workerConfiguration.maxInFlight = max(1, configuration.maxConcurrentTransfers)
    workerConfiguration.maxPerHost = max(1, configuration.maxTransfersPerHost)
    workerConfiguration.hostDelay = configuration.hostDelay
    workerConfiguration.trust = configuration.trust
    workerConfiguration.addressPolicy = configuration.addressPolicy
    workerConfiguration.allowsDowngrade = configuration.allowsDowngrade
    workerConfiguration.netrc = configuration.netrc
    worker = try ConnectionWorker(configuration: workerConfiguration)
    localReaders = LocalReaderPool(maxWidth: configuration.maxConcurrentTransfers)
  }

  /// Cancels what is in flight (each running source ends `cancelled`) and stops the worker
  /// thread, blocking until it has. For callers outside Swift concurrency; call it once.
  public func syncShutdown() {
    worker.stop()
  }

  /// Cancels what is in flight and stops the worker thread, without blocking a concurrency
  /// thread while it winds down.
  public func shutdown() async {
    let worker = worker
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        worker.stop()
        done.resume()
      }
    }
  }

  /// The old name of `syncShutdown()`.
  @available(*, deprecated, renamed: "syncShutdown()")
  public func close() {
    syncShutdown()
  }

  /// Starts pulling `sources` (a source given twice is pulled once) and returns at once;
  /// `sink` receives every record, and `completion` runs once every source has its `end`, with
  /// the `end` records that `keeping` keeps.
  ///
  /// - Parameter keeping: `.failedOnly` for lists of any length: the sink has seen every `end`
  ///   already, and keeping all of them would make memory grow with the number of sources.
  @discardableResult
  public func start(
    _ sources: [PullSource], into sink: any PullRecordSink,
    keeping: EndRecordRetention = .all,
    completion: @escaping @Sendable ([EndRecord]) -> Void
  ) -> PullBatch {
    start(sources, into: sink, keeping: keeping, endRunner: nil, completion: completion)
  }

  /// The same, with the runner that carries out the `end` of a transfer that brought no body (a
  /// 304, an error before any byte): the one that takes it next anyway (a subscription run), so
  /// that the end makes no hop from the worker thread when the runner is free.
  @discardableResult
  package func start(
    _ sources: [PullSource], into sink: any PullRecordSink, keeping: EndRecordRetention,
    endRunner: (any BodilessEndRunner)?, completion: @escaping @Sendable ([EndRecord]) -> Void
  ) -> PullBatch {
    var seen = Set<String>()
    // A single source needs no set.
    let unique = sources.count < 2 ? sources : sources.filter { seen.insert($0.source).inserted }
    let tracker = CompletionTracker(
      count: unique.count, retention: keeping, completion: completion)
    let batch = PullBatch(worker: worker)
    if unique.isEmpty { tracker.finishIfEmpty() }
    // One closure for the whole batch, not one a source.
    let onEnd: @Sendable (EndRecord) -> Void = { [self] end in
      running.subtract(1, ordering: .releasing)
      tracker.ended(end)
    }
    for source in unique {
      start(source, into: sink, batch: batch, endRunner: endRunner, onEnd: onEnd)
    }
    return batch
  }

  /// One source whose `end` its caller takes from the sink, as a subscription run does: it
  /// starts its sources one at a time and wants no completion, so no tracker is made for it
  /// (a tracker, its lock and their closures were four of a 304's allocations). The batch
  /// cancels the source, the feed a page of it leads to included.
  package func start(
    _ source: PullSource, into sink: any PullRecordSink, endRunner: (any BodilessEndRunner)?
  ) -> PullBatch {
    let batch = PullBatch(worker: worker)
    start(source, into: sink, batch: batch, endRunner: endRunner) { [self] _ in
      running.subtract(1, ordering: .releasing)
    }
    return batch
  }

  /// Pulls `sources` into `sink` and returns their `end` records once every one has ended.
  /// Cancelling the calling task cancels the sources still running (they end `cancelled`).
  @discardableResult
  public func pull(_ sources: [PullSource], into sink: any PullRecordSink) async -> [EndRecord] {
    let handle = TSanVisibleMutex<PullBatch?>(nil)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (done: CheckedContinuation<[EndRecord], Never>) in
        let batch = start(sources, into: sink) { done.resume(returning: $0) }
        let cancelled = handle.withLock { stored -> Bool in
          stored = batch
          return Task.isCancelled
        }
        if cancelled { batch.cancel() }
      }
    } onCancel: {
      handle.withLock { $0 }?.cancel()
    }
  }

  /// Pulls `sources` and blocks until every one has ended; returns their `end` records. For
  /// callers outside Swift concurrency (a command-line tool's main thread).
  @discardableResult
  public func pull(_ sources: [PullSource], into sink: any PullRecordSink) -> [EndRecord] {
    let done = DispatchSemaphore(value: 0)
    let ends = TSanVisibleMutex<[EndRecord]>([])
    start(sources, into: sink) { records in
      ends.withLock { $0 = records }
      done.signal()
    }
    done.wait()
    return ends.withLock { $0 }
  }

  /// Starts one source; `onEnd` takes its `end` and must count it off `running`.
  private func start(
    _ source: PullSource, into sink: any PullRecordSink, batch: PullBatch,
    endRunner: (any BodilessEndRunner)?, onEnd: @escaping @Sendable (EndRecord) -> Void
  ) {
    let location = SourceOrigin(source.source)
    running.add(1, ordering: .releasing)
    switch location {
    case .http(let url):
      let request = transferRequest(for: source, url: url)
      let document = DocumentPull(
        source: source.source, sink: sink, maxBytes: request.maxBodyBytes,
        html: configuration.html, onEnd: onEnd)
      document.discovery = discovery(of: source, into: sink, batch: batch, onEnd: onEnd)
      document.digestsBody = source.wantsBodyDigest
      startTransfer(request, of: document, into: sink, batch: batch, endRunner: endRunner)
    case .file, .standardInput:
      if configuration.networkOnly {
        let document = DocumentPull(
          source: source.source, sink: sink, maxBytes: nil, onEnd: onEnd)
        document.complete(
          PullError(kind: .denied, message: "a local source, and only the network may be read"))
        return
      }
      let maxBytes = configuration.maxLocalBodyBytes
      let html = configuration.html
      let name = source.source
      let discovery = discovery(of: source, into: sink, batch: batch, onEnd: onEnd)
      let timeout = source.timeout ?? configuration.timeout
      localReaders.add {
        let document = DocumentPull(
          source: name, sink: sink, maxBytes: maxBytes, html: html, onEnd: onEnd)
        document.discovery = discovery
        LocalSourceReader.read(
          location, into: document, flowControl: FlowControl.of(sink),
          deadline: Self.deadline(startedAt: document.startNanoseconds, timeout: timeout),
          isCancelled: { batch.isCancelled })
      }
    case .unsupported(let scheme):
      let document = DocumentPull(
        source: source.source, sink: sink, maxBytes: nil, onEnd: onEnd)
      document.complete(
        PullError(kind: .protocol, message: "unsupported URL scheme \"\(scheme)\""))
    }
  }
}

extension FeedPuller {
  /// Hands `document`'s transfer to the worker, as part of `batch`.
  func startTransfer(
    _ request: TransferRequest, of document: sending DocumentPull, into sink: any PullRecordSink,
    batch: PullBatch, endRunner: (any BodilessEndRunner)? = nil
  ) {
    let worker = worker
    let delegate = HTTPSourceTransfer(
      document: document, flowControl: FlowControl.of(sink), endRunner: endRunner,
      cancel: { worker.cancel($0) }, resume: { worker.resume($0) })
    batch.register(worker.add(request, delegate: delegate))
  }

  /// When a local source that started at `start` (monotonic nanoseconds) must have ended; nil
  /// for no limit.
  static func deadline(startedAt start: Int64, timeout: Duration) -> Int64? {
    guard timeout > .zero else { return nil }
    let (seconds, attoseconds) = timeout.components
    return start + seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  /// The transfer for an http(s) source: the configuration's limits, with the source's own
  /// settings over them.
  func transferRequest(for source: PullSource, url: String) -> TransferRequest {
    var request = TransferRequest(url: url)
    request.timeout = source.timeout ?? configuration.timeout
    request.connectTimeout = configuration.connectTimeout
    request.maxBodyBytes = configuration.maxNetworkBodyBytes
    request.maxRedirects = configuration.maxRedirects
    request.userAgent = source.userAgent ?? configuration.userAgent
    request.ifNoneMatch = source.ifNoneMatch
    request.ifModifiedSince = source.ifModifiedSince
    request.headers = source.headers
    request.credentials = source.credentials
    request.proxy = source.proxy
    return request
  }
}

/// Which `end` records a batch's completion receives.
public enum EndRecordRetention: Sendable {
  /// Every source's.
  case all
  /// Only those of sources that did not end `ok`.
  case failedOnly
}

/// Counts `end` records and runs the completion once, after the last, with those it keeps.
private final class CompletionTracker: Sendable {
  private let state: TSanVisibleMutex<(remaining: Int, ends: [EndRecord])>
  private let retention: EndRecordRetention
  private let completion: @Sendable ([EndRecord]) -> Void

  init(
    count: Int, retention: EndRecordRetention,
    completion: @escaping @Sendable ([EndRecord]) -> Void
  ) {
    state = TSanVisibleMutex((count, []))
    self.retention = retention
    self.completion = completion
  }

  func ended(_ record: EndRecord) {
    let finished: [EndRecord]? = state.withLock { state in
      if retention == .all || !record.ok { state.ends.append(record) }
      state.remaining -= 1
      return state.remaining == 0 ? state.ends : nil
    }
    if let finished { completion(finished) }
  }

  func finishIfEmpty() {
    if state.withLock({ $0.remaining == 0 }) { completion([]) }
  }
}
