import FeedPull

/// What a pull with state adds to a source's `end` record: what was new and changed, when the
/// source is looked at again and why, where it has moved for good, and, for a source not pulled
/// at all but in good order, why (`skipped`). These belong to the subscription layer; the
/// pipeline carries them in `EndRecord.addedFields` and writes them where its writers put them.
public struct SubscriptionEndFields: EndRecordFields, Equatable {
  /// Why a source ended `ok` without a request.
  public enum Skip: String, Sendable {
    /// Named, and its next check has not come (`--due`, watch).
    case notDue = "not_due"
    /// Another live process is pulling it (a lease in the shared state).
    case inProgress = "in_progress"
  }

  /// Items never delivered before.
  public var newItems: Int?
  /// Items whose identity was known but whose content changed.
  public var updatedItems: Int?
  /// When the source is next due.
  public var nextCheckAt: Duration?
  /// Which rule set `nextCheckAt`.
  public var nextCheckReason: CheckReason?
  /// Failed pulls in a row (rate limiting not counted), which drive the backoff.
  public var errorsInRow: Int?
  /// The URL the source now pulls, once three pulls in a row saw the same permanent redirect.
  public var movedTo: String?
  /// Why the source was not pulled, when that is not an error.
  public var skipped: Skip?

  /// No fields yet.
  public init() {}

  /// `new_items`, `updated_items`, `next_check_at`, `next_check_reason`, `errors_in_row`,
  /// `moved_to`, `skipped`.
  public func write(to writer: inout EndRecordFieldWriter) {
    Self.write(
      newItems: newItems, updatedItems: updatedItems, nextCheckAt: nextCheckAt,
      nextCheckReason: nextCheckReason, errorsInRow: errorsInRow, movedTo: movedTo,
      skipped: skipped, to: &writer)
  }

  /// The fields from their values, in their order: `write(to:)`, and a batch of skipped ends,
  /// which writes each end's fields without making this struct (copying an end and making its
  /// fields was a third of what writing a `not_due` end cost).
  static func write(
    newItems: Int?, updatedItems: Int?, nextCheckAt: Duration?, nextCheckReason: CheckReason?,
    errorsInRow: Int?, movedTo: String?, skipped: Skip?, to writer: inout EndRecordFieldWriter
  ) {
    writer.field("new_items", newItems)
    writer.field("updated_items", updatedItems)
    writer.field("next_check_at", instant: nextCheckAt?.wholeSeconds)
    writer.field("next_check_reason", nextCheckReason?.rawValue)
    writer.field("errors_in_row", errorsInRow)
    // Written with its password masked, as every URL of a pull (docs/security.md).
    writer.field("moved_to", movedTo.map(URLPasswordMask.masked))
    writer.field("skipped", skipped?.rawValue)
  }
}

extension EndRecord {
  /// The subscription layer's fields of this `end`; nil for a pull without state.
  public var subscription: SubscriptionEndFields? {
    get { addedFields as? SubscriptionEndFields }
    set { addedFields = newValue }
  }
}
