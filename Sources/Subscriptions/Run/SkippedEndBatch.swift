import FeedPull

/// A run of skipped ends that are `ok` (`not_due`, `in_progress`), handed to the sink as they
/// are: the writers write each from its name and fields, and no `EndRecord` is made for it
/// (a `--due -i` pass over a million listed sources writes 999,000 of them).
struct SkippedEndBatch: UnpulledEndBatch {
  /// The ends, every one `ok` (`SkippedEnd.errorKind` nil).
  let ends: ArraySlice<SkippedEnd>

  /// A batch of `ends`, which must all be `ok`.
  init(_ ends: ArraySlice<SkippedEnd>) {
    assert(ends.allSatisfy { $0.errorKind == nil }, "an unpulled end is ok")
    self.ends = ends
  }

  var count: Int { ends.count }

  func source(at index: Int) -> String {
    ends[ends.startIndex + index].source
  }

  func addedFields(at index: Int) -> any EndRecordFields {
    ends[ends.startIndex + index].fields
  }

  /// The fields written from the end where it lies: no copy of it, no existential box.
  func writeAddedFields(at index: Int, to writer: inout EndRecordFieldWriter) {
    ends.withUnsafeBufferPointer { $0[index].writeFields(to: &writer) }
  }
}
