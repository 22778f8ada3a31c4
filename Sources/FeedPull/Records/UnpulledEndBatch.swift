/// The `end` records of sources that ended `ok` without being pulled (a scheduler's sources that
/// are not due, or that another process is pulling), a batch at a time, in order, kept compactly
/// by the layer that decided not to pull them: a name and a few fields each, never an
/// `EndRecord`. A `--due -i` pass over a million listed sources ends 999,000 of them so, and
/// building, copying and freeing an `EndRecord` with its out-of-line fields for each was a
/// third of that run.
///
/// Each end is the record `record(at:)` gives: `EndRecord(source:)` (no error, no items, no
/// bytes, no response) with `addedFields(at:)` as its added fields. A sink may read it so
/// (`PullRecordSink.receive(unpulled:)` does by default) or write it from the name and the
/// fields directly, as the writers of this module do.
public protocol UnpulledEndBatch: Sendable {
  /// The number of ends.
  var count: Int { get }
  /// The source of end number `index` (0-based), exactly as given.
  func source(at index: Int) -> String
  /// The fields the layer above adds to end number `index` (`next_check_at`, `skipped`, …).
  func addedFields(at index: Int) -> any EndRecordFields
  /// Writes `addedFields(at: index)` to `writer` without boxing them in an existential: the
  /// writers call this once per end.
  func writeAddedFields(at index: Int, to writer: inout EndRecordFieldWriter)
}

extension UnpulledEndBatch {
  /// `addedFields(at: index)` written through its existential: for a batch that has no cheaper
  /// way.
  public func writeAddedFields(at index: Int, to writer: inout EndRecordFieldWriter) {
    addedFields(at: index).write(to: &writer)
  }

  /// End number `index` as an `EndRecord`: what a sink that does not write the batch itself
  /// receives.
  public func record(at index: Int) -> EndRecord {
    var end = EndRecord(source: source(at: index))
    end.addedFields = addedFields(at: index)
    return end
  }

  /// Every end as an `EndRecord`, in order.
  public var records: [PullRecord] {
    (0..<count).map { .end(record(at: $0)) }
  }
}
