import FeedPull

/// Tells, item by item as they are parsed, whether an item is new, updated or seen, against
/// the items its source delivered before; then says which identity mode the next pull uses.
///
/// Identity: the id, else the link, else a hash of title, date and content (`IdentityMode`).
/// The mode comes from the previous pull, so items can be judged the moment they are parsed.
/// Whatever the mode, an item whose primary key is unknown but whose link (or id) is known is
/// the same item: that catches a guid that changes on every pull, and moves the source to
/// `link` for the next pull.
struct ItemMatcher {
  let mode: IdentityMode
  let pull: Int
  let now: Duration
  private var items: [RememberedItem]
  private var byId: [Int64: Int] = [:]
  private var byLink: [Int64: Int] = [:]
  private var byContent: [Int64: Int] = [:]
  /// Links shared by several remembered items cannot identify one.
  private var sharedLinks: Set<Int64> = []
  private var touched: Set<Int> = []
  /// What this pull saw, for the next pull's mode.
  private var total = 0
  private var idsMissingOrRepeated = 0
  private var linksMissingOrRepeated = 0
  private var idsChanged = 0
  private var idsThisPull: Set<Int64> = []
  private var linksThisPull: Set<Int64> = []

  init(mode: IdentityMode, remembered: [RememberedItem], pull: Int, now: Duration) {
    self.mode = mode
    self.pull = pull
    self.now = now
    items = remembered
    for (position, item) in remembered.enumerated() { addToIndexes(item, at: position) }
  }

  /// Judges one item and remembers it as seen in this pull.
  mutating func classify(_ item: FeedItem) -> ItemStatus {
    let keys = ItemKeys(item)
    total += 1
    if let id = keys.id, idsThisPull.insert(id).inserted {} else { idsMissingOrRepeated += 1 }
    if let link = keys.link, linksThisPull.insert(link).inserted {
    } else {
      linksMissingOrRepeated += 1
    }
    guard let index = match(keys) else {
      let new = RememberedItem(
        key: keys.primary(mode), idKey: keys.id, linkKey: keys.link, contentKey: keys.content,
        fingerprint: keys.fingerprint, lastSeenAt: now, lastPull: pull)
      items.append(new)
      addToIndexes(new, at: items.count - 1)
      touched.insert(items.count - 1)
      return .new
    }
    if touched.contains(index) { return .seen }
    var known = items[index]
    if let old = known.idKey, let id = keys.id, old != id { idsChanged += 1 }
    let status: ItemStatus = known.fingerprint == keys.fingerprint ? .seen : .updated
    known.idKey = keys.id ?? known.idKey
    known.linkKey = keys.link ?? known.linkKey
    known.contentKey = keys.content
    known.fingerprint = keys.fingerprint
    known.lastSeenAt = now
    known.lastPull = pull
    known.gone = false
    items[index] = known
    addToIndexes(known, at: index)
    touched.insert(index)
    return status
  }

  /// The items this pull saw, to record once their records are written.
  var seenThisPull: [RememberedItem] { touched.sorted().map { items[$0] } }

  /// The mode for the next pull: the most trusted key that at most 5% of this pull's items
  /// lack, repeat, or (for ids) changed since the last pull.
  var nextMode: IdentityMode {
    guard total > 0 else { return mode }
    let limit = Double(total) * 0.05
    if Double(idsMissingOrRepeated + idsChanged) <= limit { return .id }
    if Double(linksMissingOrRepeated) <= limit { return .link }
    return .hash
  }

  private func match(_ keys: ItemKeys) -> Int? {
    let byPrimary: Int? =
      switch mode {
      case .id: keys.id.flatMap { byId[$0] }
      case .link: keys.link.flatMap { byLink[$0] }
      case .hash: byContent[keys.content]
      }
    if let byPrimary { return byPrimary }
    guard mode != .hash else { return nil }
    // Fallbacks find only items of earlier pulls: two items of this body are never one.
    let candidates: [Int?] = [
      keys.link.flatMap { sharedLinks.contains($0) ? nil : byLink[$0] },
      keys.id.flatMap { byId[$0] },
      keys.id == nil && keys.link == nil ? byContent[keys.content] : nil,
    ]
    return candidates.lazy.compactMap { $0 }.first { !touched.contains($0) }
  }

  private mutating func addToIndexes(_ item: RememberedItem, at index: Int) {
    if let id = item.idKey { byId[id] = index }
    if let link = item.linkKey {
      if let other = byLink[link], other != index { sharedLinks.insert(link) }
      byLink[link] = index
    }
    byContent[item.contentKey] = index
  }
}
