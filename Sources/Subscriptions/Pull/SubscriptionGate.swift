import FeedPull
import FeedPullSupport
import HTTPWorker

/// The sink between a `FeedPuller` and the output, for a pull with state: it gives each item
/// its `status` and lets through only new and updated ones (and seen ones with `--all`), and at
/// each source's end it flushes the output, then records the source in the store (one
/// transaction), then writes the `end` record with the subscription fields. An item's identity
/// is thus stored only after its record was written and flushed: at least once.
final class SubscriptionGate: PullRecordSink {
  private let inner: any PullRecordSink
  /// By the URL each source requests, which its records carry; with what to tell of a hold.
  private let trackers = TSanVisibleMutex<[String: (SourceTracker, HoldListener)]>([:])
  private let store: any SubscriptionStore
  private let options: SubscriptionPullOptions
  private let clock: @Sendable () -> Int64
  private let outputFailed: @Sendable () -> Bool
  private let results = TSanVisibleMutex<(ends: [EndRecord], failures: [StoreError])>(([], []))

  /// Told of a host's Retry-After hold as soon as a source's end sets it.
  typealias HoldListener = @Sendable (_ host: String, _ until: Int64) -> Void

  init(
    inner: any PullRecordSink, store: any SubscriptionStore, options: SubscriptionPullOptions,
    clock: @escaping @Sendable () -> Int64, outputFailed: @escaping @Sendable () -> Bool
  ) {
    self.inner = inner
    self.store = store
    self.options = options
    self.clock = clock
    self.outputFailed = outputFailed
  }

  var ends: [EndRecord] { results.withLock { $0.ends } }
  var failures: [StoreError] { results.withLock { $0.failures } }

  func flush() { inner.flush() }

  /// Adds a source before it starts.
  func add(_ tracker: SourceTracker, onHold: @escaping HoldListener) {
    trackers.withLock { $0[tracker.requestURL] = (tracker, onHold) }
  }

  /// Writes the `end` of a source that is not requested.
  func writeDeferred(_ end: EndRecord) {
    results.withLock { $0.ends.append(end) }
    inner.receive(.end(end))
    inner.flush()
  }

  /// A source that could not start because its state could not be read: it ends `deferred`
  /// (not requested), and the failure is reported with the others.
  func fail(_ state: SubscriptionState, _ error: StoreError) {
    results.withLock { $0.failures.append(error) }
    var end = EndRecord(source: state.source)
    end.error = PullError(kind: .deferred, message: "the state could not be read: \(error)")
    writeDeferred(end)
  }

  func receive(_ record: PullRecord) {
    guard let (tracker, onHold) = trackers.withLock({ $0[record.source] }) else {
      inner.receive(record)
      return
    }
    let source = tracker.state.source
    switch record {
    case .feed(var feed):
      feed.source = source
      inner.receive(.feed(feed))
    case .item(var item):
      item.source = source
      tracker.progress.withLock { progress in
        let status = progress.matcher.classify(item.item)
        item.status = status
        switch status {
        case .new:
          progress.newItems += 1
          progress.newItemTimes.append(newItemTime(item.item))
        case .updated: progress.updatedItems += 1
        case .seen:
          if options.writesSeen { progress.heldSeen.append(item) }
          return
        }
        progress.written += 1
        inner.receive(.item(item))
      }
    case .end(let end):
      finish(end, tracker, onHold)
      // Its last record: the matcher and its ledger are not needed any more.
      trackers.withLock { $0[record.source] = nil }
    }
  }

  private func newItemTime(_ item: FeedItem) -> Int64 {
    let now = clock()
    if case .instant(let seconds) = item.published ?? item.updated, seconds <= now {
      return seconds
    }
    return now
  }

  private func finish(
    _ received: EndRecord, _ tracker: SourceTracker, _ onHold: HoldListener
  ) {
    let now = clock()
    var end = received
    end.source = tracker.state.source
    tracker.progress.withLock { progress in
      let before = tracker.state
      let sameBody =
        end.ok && end.status == 200 && end.bodyDigest != nil && end.bodyDigest == before.bodyDigest
      if sameBody {
        end.notModified = true
      } else {
        for item in progress.heldSeen { inner.receive(.item(item)) }
        progress.written += progress.heldSeen.count
      }
      progress.heldSeen = []
      // Written and flushed before anything is recorded.
      inner.flush()
      let update = StateUpdate.after(
        end, tracker: tracker, progress: progress, now: now, options: options)
      if let hold = update.hostHold { onHold(hold.host, hold.until) }
      if !outputFailed() {
        var outcome = PullOutcome(
          state: update.state, seenItems: progress.matcher.seenThisPull,
          sawWholeFeed: end.ok && end.status == 200, hostHold: update.hostHold, now: now)
        outcome.retention = options.retention
        do throws(StoreError) {
          try store.record(outcome)
        } catch {
          results.withLock { $0.failures.append(error) }
        }
      }
      end.items = progress.written
      end.newItems = progress.newItems
      end.updatedItems = progress.updatedItems
      end.nextCheckAt = update.state.nextCheckAt
      end.nextCheckReason = update.state.nextCheckReason?.rawValue
      end.errorsInRow = update.state.errorsInRow
      end.movedTo = update.state.movedTo
    }
    results.withLock { $0.ends.append(end) }
    inner.receive(.end(end))
  }
}
