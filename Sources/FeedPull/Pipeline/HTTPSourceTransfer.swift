import Dispatch
import FeedParser
import FeedPullSupport
import HTTPWorker
import Synchronization

/// The transfer delegate that joins one transfer to its document: the response's headers go
/// into the end record, the body's chunks into the parser, the transfer's end into `end`.
///
/// The delegate runs on the worker thread but parses on the transfer's own serial queue: the
/// worker thread is then free for sockets while other cores parse (measured: 1,000 feeds of 50
/// KB at -j 16 ran on one core, CPU time equal to wall time, when the worker also parsed). Order
/// is kept because every step of one transfer goes through its one serial queue. More than
/// `backlogLimit` bytes waiting to be parsed pause the transfer until the queue has caught up,
/// so a slow parse (or a slow stdout) slows the transfer instead of growing memory.
///
/// With a flow-controlled sink (the async API) the parse stays on the worker thread: its
/// consumer's "behind" must be checked right before each chunk is parsed, or a whole backlog
/// of parsed records would pile up in front of a consumer that has stopped.
final class HTTPSourceTransfer: TransferDelegate {
  static let backlogLimit = 1 << 20

  private let lane: ParsingLane
  private let flowControl: (any FlowControlledSink)?
  private let resume: @Sendable (TransferID) -> Void
  /// Where the end of a transfer with no body is carried out (nil: the shared pool); see
  /// `performLast`.
  private let endRunner: (any BodilessEndRunner)?
  /// The parse queue once made; see `queue`.
  private var madeQueue: DispatchQueue?

  init(
    document: DocumentPull, flowControl: (any FlowControlledSink)?,
    endRunner: (any BodilessEndRunner)? = nil,
    cancel: @escaping @Sendable (TransferID) -> Void,
    resume: @escaping @Sendable (TransferID) -> Void
  ) {
    lane = ParsingLane(document: document, cancel: cancel)
    self.flowControl = flowControl
    self.endRunner = endRunner
    self.resume = resume
  }

  /// The transfer's parse queue; nil: parse on the worker thread. Made at the first delegate
  /// call (always on the worker thread), not when the transfer is queued: a list of ten
  /// thousand sources waits as ten thousand transfers, and memory per waiting source is what
  /// bounds such a list.
  private var queue: DispatchQueue? {
    guard flowControl == nil else { return nil }
    if let madeQueue { return madeQueue }
    let made = DispatchQueue(label: "feedpull.parse", target: .global(qos: .userInitiated))
    madeQueue = made
    return made
  }

  func transfer(_ id: TransferID, didReceive response: TransferResponse) -> ResponseDisposition {
    let lane = lane
    if response.status == 304 && madeQueue == nil {
      // No body follows, and the response is only noted: here, without a parse queue (the
      // usual answer of a subscription, which must cost little more than curl's).
      lane.begin(response)
      return .allow
    }
    perform { lane.begin(response) }
    return .allow
  }

  func transfer(_ id: TransferID, didReceive chunk: UnsafeRawBufferPointer) -> ChunkDisposition {
    guard !lane.hasEndedEarly else { return .consumed }
    if let flowControl, flowControl.isBehind {
      let resume = resume
      flowControl.whenCaughtUp { resume(id) }
      return .pause
    }
    if let queue, lane.backlog.load(ordering: .relaxed) > Self.backlogLimit {
      // Resumed by the queue itself, once everything before this block is parsed.
      let resume = resume
      queue.async { resume(id) }
      return .pause
    }
    guard let queue else {
      lane.consume(chunk, id)
      return .consumed
    }
    // The chunk's memory is curl's and valid only during this call: the queue gets a copy,
    // joined to the bytes still waiting for a parse block already queued, if there is one.
    lane.backlog.add(chunk.count, ordering: .relaxed)
    if lane.pendingBytes().append(chunk) {
      let lane = lane
      queue.async { lane.consumePending(id) }
    }
    return .consumed
  }

  func transfer(_ id: TransferID, didFinish summary: TransferSummary) {
    let lane = lane
    performLast { lane.finish(summary, error: nil) }
  }

  func transfer(_ id: TransferID, didFail error: TransferError, summary: TransferSummary) {
    let lane = lane
    performLast { lane.finish(summary, error: error) }
  }

  /// Runs `work` on the transfer's queue, or here when it has none.
  private func perform(_ work: @escaping @Sendable () -> Void) {
    if let queue { queue.async(execute: work) } else { work() }
  }

  /// Runs the transfer's last step: on its queue; or, when no body came (a 304, an error before
  /// any byte), without making a queue for it, through the sink's end runner (here when it is
  /// free) or on the shared pool.
  private func performLast(_ work: @escaping @Sendable () -> Void) {
    guard flowControl == nil else { return work() }
    if let madeQueue { return madeQueue.async(execute: work) }
    if let endRunner { return endRunner.runEnd(work) }
    DispatchQueue.global(qos: .userInitiated).async(execute: work)
  }
}

/// A transfer's document and what happened to it, touched only on the transfer's serial queue
/// (the two atomics excepted, which the worker thread reads).
private final class ParsingLane: @unchecked Sendable {
  private let document: DocumentPull
  private let cancel: @Sendable (TransferID) -> Void
  /// Whether this side ended the transfer before its body's end, and why.
  private enum Reading {
    /// Every byte so far was parsed; the transfer decides how it ends.
    case reading
    /// The parser stopped for good (a fatal error, an HTML head that is over): the rest of the
    /// body is not needed, and the `cancelled` that follows is ours. The parse says how it ended.
    case parserStopped
    /// The body went past the size limit: the source fails with this, not with `cancelled`.
    case overLimit(PullError)

    /// The error the source ends with, when this side ended the transfer.
    var error: PullError? {
      if case .overLimit(let error) = self { error } else { nil }
    }
  }

  private var reading = Reading.reading
  /// `reading` is not `.reading`, for the worker thread, which must not read `reading`.
  private let endedEarlyFlag = Atomic<Bool>(false)
  /// Bytes handed to the queue and not parsed yet.
  let backlog = Atomic<Int>(0)
  /// Bytes received and not yet taken by a parse block; made at the first chunk, on the worker
  /// thread (a queued transfer, one of thousands, carries none), and read by parse blocks
  /// queued after it was made.
  private var pending: PendingBytes?

  /// `pending`, made when the first chunk arrives. Worker thread.
  func pendingBytes() -> PendingBytes {
    if let pending { return pending }
    let made = PendingBytes()
    pending = made
    return made
  }

  init(document: DocumentPull, cancel: @escaping @Sendable (TransferID) -> Void) {
    self.document = document
    self.cancel = cancel
  }

  var hasEndedEarly: Bool { endedEarlyFlag.load(ordering: .relaxed) }

  func begin(_ response: TransferResponse) {
    record(response)
    if response.status == 304 { return }
    let contentLocation = response.headers.last {
      $0.name.lowercased() == "content-location"
    }?.value
    document.begin(
      documentURL: response.url,
      baseURL: DocumentBase.of(url: response.url, contentLocation: contentLocation),
      charset: ContentType.charset(of: response.contentType), contentType: response.contentType)
  }

  func consume(_ bytes: UnsafeRawBufferPointer, _ id: TransferID, flushing: Bool = true) {
    guard case .reading = reading else { return }
    let withinLimit = document.consume(bytes, flushing: flushing)
    if !withinLimit {
      endEarly(.overLimit(PullError(kind: .tooLarge, message: "body larger than the limit")), id)
    } else if document.parserStopped {
      endEarly(.parserStopped, id)
    }
  }

  /// Parses the oldest buffer of received bytes: the parse block that `PendingBytes.append`
  /// asked for. In slices of at most `sliceSize`, as curl hands them over, so that a parser
  /// that stops (an HTML head that is over) stops the reading within one slice; records are
  /// written out once the buffer is done.
  func consumePending(_ id: TransferID) {
    // Queued after `pending` was made, so it is there (and no longer changes).
    guard let pending else { return }
    var buffer = pending.takeOldest()
    let count = buffer.count
    buffer.withUnsafeBytes { bytes in
      var start = 0
      while start < bytes.count {
        guard case .reading = reading else { break }
        let end = min(bytes.count, start + PendingBytes.sliceSize)
        consume(
          UnsafeRawBufferPointer(rebasing: bytes[start..<end]), id, flushing: end == bytes.count)
        start = end
      }
    }
    backlog.subtract(count, ordering: .relaxed)
    buffer.removeAll(keepingCapacity: true)
    pending.giveBack(buffer)
  }

  func finish(_ summary: TransferSummary, error: TransferError?) {
    if let response = summary.response { record(response) }
    switch (reading, error) {
    case (.reading, let error?): document.complete(PullError(error))
    case (.reading, nil): document.complete(nil)
    // Ours: the transfer's `cancelled` is the echo of ending it early.
    case (_, let error?) where error.kind == .cancelled: document.complete(reading.error)
    case (_, let error?): document.complete(PullError(error))
    case (_, nil): document.complete(reading.error)
    }
  }

  private func endEarly(_ why: Reading, _ id: TransferID) {
    reading = why
    endedEarlyFlag.store(true, ordering: .relaxed)
    cancel(id)
  }

  private func record(_ response: TransferResponse) {
    document.update { end in
      end.url = response.url
      end.status = response.status
      end.notModified = response.status == 304
      end.permanentRedirect = response.permanentRedirect
      document.redirectCount = response.redirectCount
      end.retryAfter = response.retryAfter
      end.etag = response.etag
      end.lastModified = response.lastModified
      end.contentType = response.contentType
      end.responseHeaders = response.headers
      end.cacheMaxAge = response.cacheMaxAge
      end.expiresAfter = response.expiresAfter
    }
  }
}

/// The bytes of one transfer between the worker thread, which appends each chunk curl gives
/// it, and the transfer's parse queue, which takes them a buffer at a time. A chunk that
/// arrives while the newest buffer still waits for its parse block (and has room) joins it
/// instead of queueing a block of its own: over HTTP/2, nginx sends 8 KB frames, and a block
/// with an allocated copy per frame cost about a tenth of the process's CPU time. A parser
/// that keeps up still gets each chunk at once, since a chunk after its buffer was taken queues
/// a new one. Buffers are at most `bufferSize` and are reused, so memory stays what the
/// transfer's backlog limit allows.
final class PendingBytes: Sendable {
  /// A buffer's size: chunks join one until it would pass this.
  static let bufferSize = 64 * 1024
  /// What the parser is given at once, as curl hands over its writes (`CURL_MAX_WRITE_SIZE`).
  static let sliceSize = 16 * 1024

  private struct State {
    /// Buffers waiting for their parse blocks, oldest first; one block is queued for each.
    var waiting: [[UInt8]] = []
    /// Emptied buffers for reuse.
    var free: [[UInt8]] = []
  }

  private let state = TSanVisibleMutex(State())

  /// Appends `chunk`; true when the caller must queue a parse block for a new buffer.
  func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
    state.withLock { state in
      if let last = state.waiting.indices.last,
        state.waiting[last].count + chunk.count <= Self.bufferSize
      {
        state.waiting[last].append(contentsOf: chunk)
        return false
      }
      var buffer = state.free.popLast() ?? []
      buffer.reserveCapacity(Self.bufferSize)
      buffer.append(contentsOf: chunk)
      state.waiting.append(buffer)
      return true
    }
  }

  /// The oldest waiting buffer, for the block queued with it.
  func takeOldest() -> [UInt8] {
    state.withLock { state in
      state.waiting.isEmpty ? [] : state.waiting.removeFirst()
    }
  }

  /// An emptied buffer back for reuse (two are kept).
  func giveBack(_ buffer: [UInt8]) {
    guard buffer.capacity <= Self.bufferSize * 2 else { return }
    state.withLock { state in
      if state.free.count < 2 { state.free.append(buffer) }
    }
  }
}
