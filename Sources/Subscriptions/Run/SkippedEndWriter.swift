import Dispatch
import FeedPull

/// Writes the `end`s of sources a run did not pull into its sink on a thread of its own, in the
/// order they are given, so that the run's queue goes on claiming while they are encoded: a
/// `--due -i` pass over a million names spent half of its queue's time encoding 999,000
/// `not_due` ends. The contract lets records of different sources interleave, and a skipped
/// source has no record but its `end`, so only the order among these ends is kept. At most
/// `batchesInFlight` batches wait at once (the queue waits for room), so memory stays bounded
/// when encoding falls behind; a caller that must never wait (the connection worker's thread,
/// which writes the `deferred` ends of a held host's sources) goes past the bound instead, with
/// no more than those few ends. `drain()` waits until every batch given is written.
final class SkippedEndWriter: Sendable {
  /// Batches waiting to be encoded, at most.
  static let batchesInFlight = 4

  private let sink: any PullRecordSink
  private let queue = DispatchQueue(label: "feedpull.skipped-ends")
  private let room = DispatchSemaphore(value: batchesInFlight)

  /// A writer into `sink`.
  init(into sink: any PullRecordSink) {
    self.sink = sink
  }

  /// Writes `ends` (a run of them in order; `ok` ones compact, failed ones as records), then
  /// lets the sink write out what it holds. Waits for room unless `mayWait` is false: then a
  /// batch that finds none is queued beyond the bound, and gives no room back when written.
  func write(_ ends: [SkippedEnd], mayWait: Bool = true) {
    let tookRoom: Bool
    if mayWait {
      room.wait()
      tookRoom = true
    } else {
      tookRoom = room.wait(timeout: .now()) == .success
    }
    queue.async { [sink, room] in
      var start = ends.startIndex
      while start < ends.endIndex {
        let ok = ends[start].errorKind == nil
        var end = start + 1
        while end < ends.endIndex, (ends[end].errorKind == nil) == ok { end += 1 }
        if ok {
          sink.receive(unpulled: SkippedEndBatch(ends[start..<end]))
        } else {
          sink.receive(contentsOf: ends[start..<end].map { PullRecord.end($0.record) })
        }
        start = end
      }
      sink.flush()
      if tookRoom { room.signal() }
    }
  }

  /// Returns once every batch given so far is in the sink.
  func drain() {
    queue.sync {}
  }
}
