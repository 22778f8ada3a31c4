import FeedPull
import FeedPullSupport
import Foundation
import TestSupport
import Testing

@testable import Subscriptions

/// The ends of sources not pulled, written on the writer's own thread: in the order given, all
/// of them in the sink once `drain()` returns, and never more than `batchesInFlight` batches
/// waiting for a sink that falls behind.
@Suite struct SkippedEndWriterTests {
  /// Twenty batches of fifty `not_due` ends; with `cancelling`, every tenth is `cancelled`.
  static func batches(cancelling: Bool) -> [[SkippedEnd]] {
    (0..<20).map { batch in
      (0..<50).map { index in
        SkippedEnd(
          source: "https://example.com/\(batch)/\(index).xml",
          why: cancelling && index % 10 == 9 ? .cancelled : .notDue,
          nextCheckAt: .seconds(1_796_126_400))
      }
    }
  }

  @Test func everyEndArrivesInOrderByTheDrain() {
    let collector = PullRecordCollector()
    let writer = SkippedEndWriter(into: collector)
    let batches = Self.batches(cancelling: true)
    for batch in batches { writer.write(batch) }
    writer.drain()
    let expected = batches.joined().map { PullRecord.end($0.record) }
    #expect(collector.records == expected)
    #expect(collector.records.count == 1000)
  }

  /// A sink that holds the first batch until the writer's caller is four batches on: each batch
  /// it then takes finds at most `batchesInFlight` more given than taken before it.
  @Test func aSlowSinkHoldsTheCallerBack() {
    let given = EventLatch()
    let sink = GatedSink(given: given)
    let writer = SkippedEndWriter(into: sink)
    let done = EventLatch()
    let batches = Self.batches(cancelling: false)
    Thread.detachNewThread {
      for batch in batches {
        writer.write(batch)
        given.signal()
      }
      done.signal()
    }
    #expect(given.wait(for: SkippedEndWriter.batchesInFlight, timeout: 30))
    sink.open()
    #expect(done.wait(timeout: 30))
    writer.drain()
    let seen = sink.givenWhenTaken
    #expect(seen.count == batches.count)
    for (taken, given) in seen.enumerated() {
      #expect(given <= taken + SkippedEndWriter.batchesInFlight)
    }
  }

  /// The connection worker's thread never waits for room: with the sink held and every place
  /// taken, a write that may not wait returns at once, and its ends still arrive, in order
  /// after those given before it.
  @Test func aWriteThatMayNotWaitGoesPastTheBound() {
    let given = EventLatch()
    let sink = GatedSink(given: given)
    let writer = SkippedEndWriter(into: sink)
    let batches = Self.batches(cancelling: false)
    for batch in batches.prefix(SkippedEndWriter.batchesInFlight) { writer.write(batch) }
    let returned = EventLatch()
    Thread.detachNewThread {
      writer.write(batches[SkippedEndWriter.batchesInFlight], mayWait: false)
      returned.signal()
    }
    #expect(returned.wait(timeout: 30))
    sink.open()
    writer.write(batches[SkippedEndWriter.batchesInFlight + 1])
    writer.drain()
    #expect(sink.givenWhenTaken.count == SkippedEndWriter.batchesInFlight + 2)
    let expected = batches.prefix(SkippedEndWriter.batchesInFlight + 2).joined().map(\.source)
    #expect(sink.sources == Array(expected))
  }
}

/// A sink whose first batch waits until `open()`, noting for each batch how many the writer's
/// caller had given when it arrived.
private final class GatedSink: PullRecordSink {
  private let given: EventLatch
  private let gate = DispatchSemaphore(value: 0)
  private let seen = TSanVisibleMutex<[Int]>([])
  private let taken = TSanVisibleMutex<[String]>([])

  init(given: EventLatch) {
    self.given = given
  }

  var givenWhenTaken: [Int] { seen.withLock { $0 } }
  /// The sources of every end taken, in order.
  var sources: [String] { taken.withLock { $0 } }

  func open() { gate.signal() }

  func receive(_ record: PullRecord) {}

  func receive(unpulled ends: any UnpulledEndBatch) {
    let first = seen.withLock { $0.isEmpty }
    if first { gate.wait() }
    let count = given.value
    seen.withLock { $0.append(count) }
    taken.withLock { taken in
      for index in 0..<ends.count { taken.append(ends.source(at: index)) }
    }
  }

  func flush() {}
}
