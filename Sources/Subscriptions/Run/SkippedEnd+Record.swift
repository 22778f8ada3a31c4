import FeedPull

extension SkippedEnd {
  /// The `end` record of a source not pulled: `ok` with `skipped` when it is in good order (not
  /// due, pulled by another process), `deferred` when its server asked not to be asked (gone,
  /// held), `cancelled` when the run stopped before it started.
  var record: EndRecord {
    var end = EndRecord(source: source)
    let fields = self.fields
    switch why {
    case .notDue, .inProgress: break
    case .gone:
      end.error = PullError(
        kind: .deferred, message: "the source is gone (410); --force pulls it again")
    case .held(let host):
      end.error = PullError(
        kind: .deferred, message: "\(host) asked to wait (Retry-After) until the next check")
    case .cancelled:
      end.error = PullError(kind: .cancelled, message: "cancelled before it started")
    }
    if fields != SubscriptionEndFields() { end.subscription = fields }
    return end
  }

  /// The subscription layer's fields of its `end`: the next check, the errors in a row, a
  /// move, and `skipped` for an `ok` one.
  var fields: SubscriptionEndFields {
    var fields = SubscriptionEndFields()
    fields.nextCheckAt = nextCheckAt
    fields.nextCheckReason = reason
    fields.errorsInRow = errorsInRow
    fields.movedTo = movedTo
    fields.skipped = skip
    return fields
  }

  /// `fields` written straight from this end, for each end a batch writes.
  func writeFields(to writer: inout EndRecordFieldWriter) {
    SubscriptionEndFields.write(
      newItems: nil, updatedItems: nil, nextCheckAt: nextCheckAt, nextCheckReason: reason,
      errorsInRow: errorsInRow, movedTo: movedTo, skipped: skip, to: &writer)
  }

  /// Why an `ok` end was skipped; nil for a failed one.
  private var skip: SubscriptionEndFields.Skip? {
    switch why {
    case .notDue: .notDue
    case .inProgress: .inProgress
    case .gone, .held, .cancelled: nil
    }
  }

  /// The kind of the error its `end` carries (`record.error?.kind`; a test holds them equal);
  /// nil for an `ok` one. The run counts a batch of skipped ends from this, without reading
  /// their records again.
  var errorKind: PullError.Kind? {
    switch why {
    case .notDue, .inProgress: nil
    case .gone, .held: .deferred
    case .cancelled: .cancelled
    }
  }
}
