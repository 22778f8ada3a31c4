import Foundation

/// One source's whole state as `feedpull state export` writes it and `state import` reads it:
/// the record conventions of feedpull's output (snake_case names, RFC 3339 times, fields with no
/// value left out, a `type`), so that jq and other tools read it like any record. Hashes
/// (item keys, the body digest) are 16 hexadecimal digits: as JSON numbers, 64-bit values would
/// lose their low bits in readers that hold numbers as doubles (jq, JavaScript).
struct ExportedSubscription: Codable, Equatable {
  var type = "subscription"
  var source: String
  var movedTo: String?
  var etag: String?
  var lastModified: String?
  var bodyDigest: String?
  var lastCheckAt: String?
  var lastUnconditionalAt: String?
  var nextCheckAt: String?
  var nextCheckReason: CheckReason?
  var errorsInRow: Int
  var gone: Bool?
  var redirectTarget: String?
  var redirectCount: Int?
  var identityMode: IdentityMode
  var pulls: Int
  var newItemTimes: [String]?
  var items: [ExportedItem]?

  enum CodingKeys: String, CodingKey {
    case type, source, etag, gone, pulls, items
    case movedTo = "moved_to"
    case lastModified = "last_modified"
    case bodyDigest = "body_digest"
    case lastCheckAt = "last_check_at"
    case lastUnconditionalAt = "last_unconditional_at"
    case nextCheckAt = "next_check_at"
    case nextCheckReason = "next_check_reason"
    case errorsInRow = "errors_in_row"
    case redirectTarget = "redirect_target"
    case redirectCount = "redirect_count"
    case identityMode = "identity_mode"
    case newItemTimes = "new_item_times"
  }

  /// A remembered item: its keys, when it was last in the feed, and whether it left it.
  struct ExportedItem: Codable, Equatable {
    var key: String
    var idKey: String?
    var linkKey: String?
    var contentKey: String
    var fingerprint: String
    var lastSeenAt: String
    var lastPull: Int
    var gone: Bool?

    enum CodingKeys: String, CodingKey {
      case key, fingerprint, gone
      case idKey = "id_key"
      case linkKey = "link_key"
      case contentKey = "content_key"
      case lastSeenAt = "last_seen_at"
      case lastPull = "last_pull"
    }
  }

  /// The export of `state` and the items it remembers.
  init(_ state: SubscriptionState, items: [RememberedItem]) {
    source = state.source
    movedTo = state.movedTo
    etag = state.etag
    lastModified = state.lastModified
    bodyDigest = state.bodyDigest.map(TransferValues.hex)
    lastCheckAt = state.lastCheckAt.map(TransferValues.rfc3339)
    lastUnconditionalAt = state.lastUnconditionalAt.map(TransferValues.rfc3339)
    nextCheckAt = state.nextCheckAt == .zero ? nil : TransferValues.rfc3339(state.nextCheckAt)
    nextCheckReason = state.nextCheckReason
    errorsInRow = state.errorsInRow
    gone = state.gone ? true : nil
    redirectTarget = state.redirectTarget
    redirectCount = state.redirectTarget == nil ? nil : state.redirectCount
    identityMode = state.identityMode
    pulls = state.pulls
    newItemTimes = state.newItemTimes.isEmpty ? nil : state.newItemTimes.map(TransferValues.rfc3339)
    let sorted = items.sorted { $0.key < $1.key }
    self.items = items.isEmpty ? nil : sorted.map(ExportedItem.init)
  }

  /// The state and items it stands for; throws for a value that cannot be read back.
  func restored() throws(TransferError) -> (state: SubscriptionState, items: [RememberedItem]) {
    var state = SubscriptionState(source: source)
    state.movedTo = movedTo
    state.etag = etag
    state.lastModified = lastModified
    state.bodyDigest = try bodyDigest.map { text throws(TransferError) in
      UInt64(bitPattern: try TransferValues.key(text, "body_digest"))
    }
    state.lastCheckAt = try lastCheckAt.map { text throws(TransferError) in
      try TransferValues.moment(text, "last_check_at")
    }
    state.lastUnconditionalAt = try lastUnconditionalAt.map { text throws(TransferError) in
      try TransferValues.moment(text, "last_unconditional_at")
    }
    state.nextCheckAt =
      try nextCheckAt.map { text throws(TransferError) in
        try TransferValues.moment(text, "next_check_at")
      } ?? .zero
    state.nextCheckReason = nextCheckReason
    state.errorsInRow = errorsInRow
    state.gone = gone ?? false
    state.redirectTarget = redirectTarget
    state.redirectCount = redirectCount ?? 0
    state.identityMode = identityMode
    state.pulls = pulls
    var times: [Duration] = []
    for text in newItemTimes ?? [] {
      times.append(try TransferValues.moment(text, "new_item_times"))
    }
    state.newItemTimes = times
    var remembered: [RememberedItem] = []
    for item in items ?? [] { remembered.append(try item.restored()) }
    return (state, remembered)
  }
}

extension ExportedSubscription.ExportedItem {
  init(_ item: RememberedItem) {
    key = TransferValues.hex(item.key)
    idKey = item.idKey.map(TransferValues.hex)
    linkKey = item.linkKey.map(TransferValues.hex)
    contentKey = TransferValues.hex(item.contentKey)
    fingerprint = TransferValues.hex(item.fingerprint)
    lastSeenAt = TransferValues.rfc3339(item.lastSeenAt)
    lastPull = item.lastPull
    gone = item.gone ? true : nil
  }

  func restored() throws(TransferError) -> RememberedItem {
    RememberedItem(
      key: try TransferValues.key(key, "key"),
      idKey: try idKey.map { text throws(TransferError) in try TransferValues.key(text, "id_key") },
      linkKey: try linkKey.map { text throws(TransferError) in
        try TransferValues.key(text, "link_key")
      },
      contentKey: try TransferValues.key(contentKey, "content_key"),
      fingerprint: try TransferValues.key(fingerprint, "fingerprint"),
      lastSeenAt: try TransferValues.moment(lastSeenAt, "last_seen_at"), lastPull: lastPull,
      gone: gone ?? false)
  }
}
