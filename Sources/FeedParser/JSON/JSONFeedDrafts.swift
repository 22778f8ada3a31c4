/// A JSON Feed item while its object is open: its values go straight into the item's storage
/// as their keys come, and the keys that decide others (HTML content wins over text content,
/// `authors` over `author`, `url` comes before `external_url` in `links`) into the draft rows
/// after it, settled when the object closes.
struct JSONItemDraft {
  var storage: RecordStorage

  /// The item's own block.
  var item: Block<ItemFields> { .root }
  /// The builder's rows, after the item's.
  var draft: Block<JSONDraftFields> { Block(ItemFields.fieldCount) }

  /// An empty draft in `storage` (whose item block is empty).
  init(storage: RecordStorage) {
    self.storage = storage
    _ = storage.appendSlots(JSONDraftFields.fieldCount)
  }

  /// Settles the keys that decide others: links in their order, the content, the authors.
  func finish() {
    let storage = storage
    if storage.has(draft, \.url) {
      storage.copy(draft, \.url, to: item, \.link)
      let link = storage.append(item, \.links)
      storage.copy(draft, \.url, to: link, \.href)
      storage.setText(link, \.rel, "alternate")
    }
    if storage.has(draft, \.externalURL) {
      let link = storage.append(item, \.links)
      storage.copy(draft, \.externalURL, to: link, \.href)
      storage.setText(link, \.rel, "related")
    }
    if storage.has(item, \.title) { storage.setText(item, \.titleType, "text/plain") }
    if storage.has(item, \.content) {
      storage.setText(item, \.contentType, "text/html")
    } else if storage.has(draft, \.contentText) {
      storage.copy(draft, \.contentText, to: item, \.content)
      storage.setText(item, \.contentType, "text/plain")
    }
    if storage.has(item, \.summary) { storage.setText(item, \.summaryType, "text/plain") }
    // An item without authors of its own takes the feed's, in `JSONFeedBuilder`.
    JSONPeople.settle(
      list: item.slot(\.authors), single: draft.slot(\.author), in: storage)
  }
}

/// The builder's rows of a JSON Feed record, past its table.
struct JSONDraftFields: RecordSchema {
  /// The item's `url`, which is its link and its first `links` entry.
  let url = Field<String>("url")
  /// The item's `external_url`, a `related` entry of `links` after `url`'s.
  let externalURL = Field<String>("external_url")
  /// `content_text`, the content when there is no `content_html`.
  let contentText = Field<String>("content_text")
  /// JSON Feed 1.0's single `author`, taken when there is no `authors` list.
  let author = Field<FeedPerson>("author")
  /// The attachment being read, an enclosure once its object closes with a URL.
  let attachment = Field<FeedEnclosure>("attachment")

  init() {}
}

/// Authors as JSON Feed gives them: 1.1's `authors` supersedes 1.0's `author` (publishers may
/// give both for old readers), and a person with neither a name nor a URL is no author.
enum JSONPeople {
  /// Settles the list at `list` in `storage`: the `single` author when the list is empty, and
  /// no person without a name and a URI.
  static func settle(list: Int, single: Int, in storage: RecordStorage) {
    if storage.listCount(at: list) == 0, storage.existingObject(at: single) != nil {
      storage.copyValue(from: storage, at: single, to: storage.appendEntry(toListAt: list))
    }
    var kept: [Int] = []
    var dropped = false
    storage.forEachValue(ofListAt: list) { value in
      if let person = storage.existingObject(at: value).map(Block<PersonFields>.init),
        storage.has(person, \.name) || storage.has(person, \.uri)
      {
        kept.append(value)
      } else {
        dropped = true
      }
      return true
    }
    guard dropped else { return }
    // The entries dropped from the list stay in the storage, unreachable, until it is reused.
    storage.clear(at: list)
    for value in kept {
      storage.copyValue(from: storage, at: value, to: storage.appendEntry(toListAt: list))
    }
  }

  /// Copies the feed's authors as `settle` would settle them (the list, else the single
  /// author; no person without a name and a URI), from the channel's storage into the list at
  /// `target` of an item's.
  static func copyFeedAuthors(
    list: Int, single: Int, from channel: RecordStorage, to target: Int,
    in storage: RecordStorage
  ) {
    func copy(_ value: Int) {
      guard let person = channel.existingObject(at: value).map(Block<PersonFields>.init),
        channel.has(person, \.name) || channel.has(person, \.uri)
      else { return }
      storage.copyValue(from: channel, at: value, to: storage.appendEntry(toListAt: target))
    }
    if channel.listCount(at: list) > 0 {
      channel.forEachValue(ofListAt: list) { value in
        copy(value)
        return true
      }
    } else {
      copy(single)
    }
  }
}
