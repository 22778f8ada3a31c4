import FeedPull
import FeedPullSupport

/// The sink between a `FeedPuller` and the output for one source's pull with state: it gives
/// each item its `status` and lets through only new and updated ones (and seen ones with
/// `--all`); at the source's end it writes the held `seen` items (unless the body was the same
/// bytes as last time), flushes the output, and hands the end to its run, which records it in
/// the store and only then writes the `end` record. An item's identity is thus stored only after
/// its record was written and flushed: at least once.
///
/// One gate per pull, dropped at its end, so nothing accumulates across pulls; the source's
/// remembered items are read only when its first item arrives, so a 304 reads none.
final class SourceGate: PullRecordSink {
  private struct Progress {
    var matcher: ItemMatcher?
    /// The ledger could not be read: every item is written as new, and nothing is recorded.
    var ledgerFailure: StoreError?
    var heldSeen: [ItemRecord] = []
    var written = 0
    var newItems = 0
    var updatedItems = 0
    var newItemTimes: [Duration] = []
  }

  let planned: PlannedPull
  private let run: SubscriptionRun
  private let progress = TSanVisibleMutex(Progress())

  init(_ planned: PlannedPull, run: SubscriptionRun) {
    self.planned = planned
    self.run = run
  }

  /// The request: the source's current URL, validators unless unconditional, and a digest of
  /// the body.
  var pullSource: PullSource {
    var source = PullSource(planned.state.requestURL)
    if !planned.unconditional {
      source.ifNoneMatch = planned.state.etag
      source.ifModifiedSince = planned.state.lastModified
    }
    source.wantsBodyDigest = true
    return source
  }

  func flush() { run.sink.flush() }

  func receive(_ record: PullRecord) {
    let source = planned.state.source
    switch record {
    case .feed(var feed):
      feed.source = source
      run.sink.receive(.feed(feed))
    case .item(var item):
      item.source = source
      progress.withLock { progress in
        let status = classify(item.item, &progress)
        item.status = status
        switch status {
        case .new:
          progress.newItems += 1
          progress.newItemTimes.append(newItemTime(item.item))
        case .updated: progress.updatedItems += 1
        case .seen:
          if run.options.writesSeen { progress.heldSeen.append(item) }
          return
        }
        progress.written += 1
        run.sink.receive(.item(item))
      }
    case .end(let end):
      finish(end)
    }
  }

  private func classify(_ item: FeedItem, _ progress: inout Progress) -> ItemStatus {
    if progress.matcher == nil && progress.ledgerFailure == nil {
      let state = planned.state
      do throws(StoreError) {
        progress.matcher = ItemMatcher(
          mode: state.identityMode, remembered: try run.leasing.ledger(of: state.source),
          pull: state.pulls + 1, now: run.clock.now.inWholeSeconds)
      } catch {
        progress.ledgerFailure = error
      }
    }
    return progress.matcher?.classify(item) ?? .new
  }

  private func newItemTime(_ item: FeedItem) -> Duration {
    let now = run.clock.now.inWholeSeconds
    if case .instant(let seconds) = item.published ?? item.updated, .seconds(seconds) <= now {
      return .seconds(seconds)
    }
    return now
  }

  /// What a pull's items left in its gate, taken once at its end.
  private struct Taken {
    var nextMode: IdentityMode?
    var seenItems: [RememberedItem]
    var ledgerFailure: StoreError?
    var written: Int
    var newItems: Int
    var updatedItems: Int
    var newItemTimes: [Duration]
  }

  /// The source's end: the held `seen` items written (unless the body was the same bytes as
  /// last time) and flushed, the new state worked out, and the end handed to the run. The end
  /// is a local of this function, not a variable a closure captures: each use of a captured
  /// one copied the whole record (five copies an end).
  private func finish(_ received: consuming EndRecord) {
    let now = run.clock.now
    var end = consume received
    end.source = planned.state.source
    let before = planned.state
    let sameBody =
      end.ok && end.status == 200 && end.bodyDigest != nil && end.bodyDigest == before.bodyDigest
    if sameBody { end.notModified = true }
    let taken = progress.withLock { progress in
      if !sameBody {
        for item in progress.heldSeen { run.sink.receive(.item(item)) }
        progress.written += progress.heldSeen.count
      }
      progress.heldSeen = []
      return Taken(
        nextMode: progress.matcher?.nextMode, seenItems: progress.matcher?.seenThisPull ?? [],
        ledgerFailure: progress.ledgerFailure, written: progress.written,
        newItems: progress.newItems, updatedItems: progress.updatedItems,
        newItemTimes: progress.newItemTimes)
    }
    // Written and flushed before anything is recorded.
    run.sink.flush()
    let seen = StateUpdate.Seen(nextMode: taken.nextMode, newItemTimes: taken.newItemTimes)
    // Taken apart once: each read of a field through the tuple copied the whole state.
    let (state, hostHold) = StateUpdate.after(
      end, pulled: planned, seen: seen, now: now, options: run.options)
    var fields = SubscriptionEndFields()
    fields.newItems = taken.newItems
    fields.updatedItems = taken.updatedItems
    fields.nextCheckAt = state.nextCheckAt
    fields.nextCheckReason = state.nextCheckReason
    fields.errorsInRow = state.errorsInRow
    fields.movedTo = state.movedTo
    end.items = taken.written
    end.subscription = fields
    let ended = PullEnd(
      source: before.source, nextCheckAt: state.nextCheckAt, reason: state.nextCheckReason,
      hostHold: hostHold.map { PullEnd.HostHold(host: $0.host, until: $0.until) },
      gone: state.gone && end.status == 410)
    // Built after the last reads of the new state, so that its use here is the last one.
    // As claimed (`before`): the store writes only what this pull changed (a 304, its
    // schedule).
    let outcome: PullOutcome? =
      taken.ledgerFailure == nil
      ? PullOutcome(
        state: state, seenItems: taken.seenItems, sawWholeFeed: end.ok && end.status == 200,
        hostHold: hostHold, now: now, retention: run.options.retention, before: before)
      : nil
    // The outcome (two states) moved into the finished pull, not copied.
    run.ended(
      FinishedPull(
        end: end, outcome: consume outcome, failure: taken.ledgerFailure,
        ended: consume ended))
  }
}

/// A pull that has ended, on its way to the store and then to the output. A class: it passes
/// through a queue of ends, a batch and a group commit, and a copy of its value (an end record
/// and two states) cost more than the scheduler's whole handling of it.
final class FinishedPull: Sendable {
  /// Its `end`, with the subscription fields.
  let end: EndRecord
  /// What to record; nil when it must not be (its ledger could not be read).
  let outcome: PullOutcome?
  /// Why it is not recorded.
  let failure: StoreError?
  /// What the scheduler learns of it.
  let ended: PullEnd

  init(
    end: consuming EndRecord, outcome: consuming PullOutcome?, failure: StoreError?,
    ended: consuming PullEnd
  ) {
    self.end = end
    self.outcome = outcome
    self.failure = failure
    self.ended = ended
  }
}
