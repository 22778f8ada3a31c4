import FeedPullSupport
import Foundation
import HTTPWorker

/// Everything a transfer's delegate was told, in order, readable from the test thread while the
/// worker thread writes it (swift-log's in-memory handler, for transfers).
public final class TransferLog: Sendable {
  public enum Event: Sendable, Equatable {
    case response(TransferResponse)
    case chunk([UInt8])
    case finish(TransferSummary)
    case fail(TransferError, TransferSummary)
  }

  private let events = TSanVisibleMutex<[Event]>([])
  private let threads = TSanVisibleMutex<Set<UInt>>([])
  /// Signalled once per `didFinish` / `didFail`.
  public let ended = EventLatch()
  /// Signalled once per chunk.
  public let chunks = EventLatch()

  public init() {}

  public var all: [Event] { events.withLock { $0 } }

  /// The body bytes delivered, joined.
  public var body: [UInt8] {
    all.flatMap { event -> [UInt8] in
      if case .chunk(let bytes) = event { return bytes }
      return []
    }
  }

  public var response: TransferResponse? {
    for case .response(let response) in all { return response }
    return nil
  }

  /// The error of the `didFail`, if the transfer failed.
  public var error: TransferError? {
    for case .fail(let error, _) in all { return error }
    return nil
  }

  /// The summary of whichever end came.
  public var summary: TransferSummary? {
    for event in all {
      switch event {
      case .finish(let summary), .fail(_, let summary): return summary
      default: continue
      }
    }
    return nil
  }

  /// Number of `didFinish` plus `didFail` calls (exactly one is right).
  public var endCount: Int {
    all.filter {
      switch $0 {
      case .finish, .fail: true
      default: false
      }
    }.count
  }

  /// True when the events follow the delegate contract: at most one response, before any chunk;
  /// exactly one end, last.
  public var isWellOrdered: Bool {
    let events = all
    guard let last = events.last, endCount == 1 else { return false }
    switch last {
    case .finish, .fail: break
    default: return false
    }
    let responses = events.indices.filter {
      if case .response = events[$0] { return true }
      return false
    }
    let firstChunk = events.firstIndex {
      if case .chunk = $0 { return true }
      return false
    }
    guard responses.count <= 1 else { return false }
    if let firstChunk { return responses.first.map { $0 < firstChunk } ?? false }
    return true
  }

  /// The threads (`pthread_t` values) the delegate was called on.
  public var threadIDs: Set<UInt> { threads.withLock { $0 } }

  func record(_ event: Event) {
    threads.withLock { _ = $0.insert(UInt(pthread_self())) }
    events.withLock { $0.append(event) }
    switch event {
    case .finish, .fail: ended.signal()
    case .chunk: chunks.signal()
    case .response: break
    }
  }
}

/// A delegate that writes into a `TransferLog`, answering as told.
public final class LoggingDelegate: TransferDelegate {
  private let log: TransferLog
  private let onResponse: @Sendable (TransferResponse) -> ResponseDisposition
  private let onChunk: @Sendable (Int) -> ChunkDisposition
  private var chunkCalls = 0

  /// - Parameters:
  ///   - onChunk: given the 0-based index of the chunk call (redeliveries after a pause count).
  public init(
    _ log: TransferLog,
    onResponse: @escaping @Sendable (TransferResponse) -> ResponseDisposition = { _ in .allow },
    onChunk: @escaping @Sendable (Int) -> ChunkDisposition = { _ in .consumed }
  ) {
    self.log = log
    self.onResponse = onResponse
    self.onChunk = onChunk
  }

  public func transfer(_ id: TransferID, didReceive response: TransferResponse)
    -> ResponseDisposition
  {
    log.record(.response(response))
    return onResponse(response)
  }

  public func transfer(_ id: TransferID, didReceive chunk: UnsafeRawBufferPointer)
    -> ChunkDisposition
  {
    let index = chunkCalls
    chunkCalls += 1
    let answer = onChunk(index)
    if answer == .consumed { log.record(.chunk(Array(chunk))) }
    return answer
  }

  public func transfer(_ id: TransferID, didFinish summary: TransferSummary) {
    log.record(.finish(summary))
  }

  public func transfer(_ id: TransferID, didFail error: TransferError, summary: TransferSummary) {
    log.record(.fail(error, summary))
  }
}
