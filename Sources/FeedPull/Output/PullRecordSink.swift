import FeedPullSupport
import Synchronization

/// Where records go as they become known: the delegate API for tools that embed feedpull.
/// Called from the threads that parse (each transfer's own serial queue, the worker thread for
/// a flow-controlled sink, the local-source readers; docs/pipeline.md), several at once, so
/// implementations must be thread-safe; records of one source arrive in order, records of
/// different sources interleave.
public protocol PullRecordSink: Sendable {
  /// One record, as soon as it is known; it must not block for long, as the parse of its source
  /// waits meanwhile.
  func receive(_ record: PullRecord)
  /// Several records at once, in order, as if received one by one: a scheduler's batch of
  /// sources that end without a pull (a million `not_due` ends of `--due -i`), where a lock and
  /// a call per record were a large part of the run. By default one `receive` each.
  func receive(contentsOf records: [PullRecord])
  /// The `end`s of sources that ended `ok` without a pull, in order, as if each were received
  /// as `record(at:)`: kept compact so that a million of them cost no `EndRecord` each
  /// (`UnpulledEndBatch`). By default the records are made and passed to
  /// `receive(contentsOf:)`, so a sink written before this existed sees what it always saw.
  func receive(unpulled ends: any UnpulledEndBatch)
  /// A batch boundary (the end of a parsed chunk, the end of a source): what was received may
  /// be written out now. Writers batch records between flushes into one `write`.
  func flush()
}

extension PullRecordSink {
  /// One `receive` a record, in order.
  public func receive(contentsOf records: [PullRecord]) {
    for record in records { receive(record) }
  }

  /// Each end as its `EndRecord`, through `receive(contentsOf:)`.
  public func receive(unpulled ends: any UnpulledEndBatch) {
    receive(contentsOf: ends.records)
  }
}

/// Keeps every record in memory, for tests and for small embedders.
public final class PullRecordCollector: PullRecordSink {
  private let stored = TSanVisibleMutex<[PullRecord]>([])

  /// An empty collector; read what it gathered with `records`.
  public init() {}

  /// Appends the record; safe from any thread.
  public func receive(_ record: PullRecord) {
    stored.withLock { $0.append(record) }
  }

  /// Nothing to do: records are kept, never written.
  public func flush() {}

  /// Every record received so far, in arrival order.
  public var records: [PullRecord] { stored.withLock { $0 } }
}
