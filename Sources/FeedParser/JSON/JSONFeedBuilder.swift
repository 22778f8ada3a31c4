/// Turns a JSON Feed's parse events into `FeedEvent`s: the channel, then each item the moment
/// its object closes. It holds the open objects' contexts and the item being read, nothing of
/// the items before it, so memory stays flat however long the feed is.
///
/// The channel must come before the first item, but JSON does not order an object's keys: a
/// feed whose `items` come before its `version` cannot be told from other JSON until the
/// version arrives, so its items wait for it (bounded by `--max-bytes`); in the usual order
/// (`version` first, as every publisher we know writes it) nothing waits.
///
/// Its mutable stored properties are marked `@exclusivity(unchecked)`: yajl's callbacks touch
/// them on one thread, one callback at a time, and the dynamic checks cost 6% of a JSON Feed's
/// parse (callgrind, 5 MB), as they did in `FeedDocumentBuilder`.
final class JSONFeedBuilder: JSONEventHandler {
  private let documentURL: String?
  private let maxDepth: Int
  private let emit: (FeedEvent) -> Void

  @exclusivity(unchecked) private var stack: [(context: JSONFeedContext, key: JSONFeedKey?)] = [
    (.document, nil)
  ]
  /// Nil until a `version` names a JSON Feed.
  @exclusivity(unchecked) private var version: FeedVersion?
  @exclusivity(unchecked) private var channel = FeedChannel(version: .json11)
  /// The builder's rows of the channel (its 1.0 `author`), after the channel's own.
  private let channelDraft = Block<JSONDraftFields>(ChannelFields.fieldCount)
  @exclusivity(unchecked) private var channelSent = false
  /// The item being read; nil outside an item's object.
  @exclusivity(unchecked) private var item: JSONItemDraft?
  /// The last item's storage, for the next item when nobody kept the last one.
  @exclusivity(unchecked) private var spareItemStorage: RecordStorage?
  /// The person being read (an author), in the channel's or the item's storage.
  @exclusivity(unchecked) private var person: (storage: RecordStorage, block: Block<PersonFields>)?
  @exclusivity(unchecked) private var itemIndex = 0
  @exclusivity(unchecked) private var itemsWaitingForVersion: [FeedItem] = []
  /// A string's bytes without its C0 controls, when it has any (`ControlCharacters`).
  @exclusivity(unchecked) private var controlFreeScratch: [UInt8] = []
  /// What `--html` does to `content_html` (resolved against the document's URL).
  @exclusivity(unchecked) private var html: HTMLFieldTreatment
  @exclusivity(unchecked) private(set) var failure: FeedParseFailure?
  /// True once the top-level object has closed.
  @exclusivity(unchecked) private(set) var documentClosed = false

  init(
    documentURL: String?, maxDepth: Int, html: HTMLMode = .safe,
    emit: @escaping (FeedEvent) -> Void
  ) {
    self.documentURL = documentURL
    self.maxDepth = maxDepth
    self.html = HTMLFieldTreatment(html)
    self.emit = emit
    _ = channel.storage.appendSlots(JSONDraftFields.fieldCount)
  }

  /// How the document ended, once the parser has finished (or stopped).
  func finish() {
    if failure == nil, documentClosed, version == nil {
      failure = FeedParseFailure(
        kind: .notAFeed, message: "the document is JSON, not a JSON Feed (no jsonfeed.org version)")
    }
  }

  private var context: JSONFeedContext { stack[stack.count - 1].context }
  private var key: JSONFeedKey? { stack[stack.count - 1].key }

  // MARK: Structure

  func jsonStartObject() -> Bool { open(isObject: true) }
  func jsonStartArray() -> Bool { open(isObject: false) }

  private func open(isObject: Bool) -> Bool {
    if stack.count > maxDepth {
      return stop(.xml, "nesting deeper than \(maxDepth)")
    }
    if context == .document && !isObject {
      return stop(.notAFeed, "the document is a JSON array, not a JSON Feed")
    }
    let child = context.child(key: key, isObject: isObject)
    switch child {
    case .item:
      item = JSONItemDraft(storage: takeItemStorage())
    case .feedAuthor:
      person = (channel.storage, newObject(at: channelDraft.slot(\.author), in: channel.storage))
    case .feedAuthorListEntry:
      person = (channel.storage, channel.storage.append(.root, \ChannelFields.authors))
    case .itemAuthor:
      if let item {
        person = (item.storage, newObject(at: item.draft.slot(\.author), in: item.storage))
      }
    case .itemAuthorListEntry:
      if let item { person = (item.storage, item.storage.append(item.item, \.authors)) }
    case .attachment:
      if let item {
        _ = newObject(at: item.draft.slot(\.attachment), in: item.storage) as Block<EnclosureFields>
      }
    default: break
    }
    stack.append((child, nil))
    return true
  }

  func jsonKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    // Inside a skipped value no key matters; not even building it.
    if context != .skipped { stack[stack.count - 1].key = JSONFeedKey(bytes) }
    return true
  }

  func jsonEndObject() -> Bool { close() }
  func jsonEndArray() -> Bool { close() }

  private func close() -> Bool {
    let closing = stack.removeLast().context
    switch closing {
    case .feed:
      documentClosed = true
      if version != nil { sendChannel() }
    case .item: return finishItem()
    case .feedAuthor, .feedAuthorListEntry, .itemAuthor, .itemAuthorListEntry: person = nil
    case .attachment:
      // An attachment without a URL, which the specification requires, is none.
      if let item, let attachment = item.storage.existing(item.draft, \.attachment),
        item.storage.has(attachment, \.url)
      {
        item.storage.copyValue(
          from: item.storage, at: item.draft.slot(\.attachment),
          to: item.storage.appendEntry(toListAt: item.item.slot(\.enclosures)))
      }
    default: break
    }
    return true
  }

  private func finishItem() -> Bool {
    guard var draft = item.take() else { return true }
    draft.finish()
    treat(draft)
    let index = itemIndex
    itemIndex += 1
    guard version != nil else {
      itemsWaitingForVersion.append(FeedItem(index: index, storage: draft.storage))
      return true
    }
    sendChannel()
    emit(.item(FeedItem(index: index, storage: draft.storage)))
    // Used again for the next item when the item was let go (see `FeedDocumentBuilder`).
    if isKnownUniquelyReferenced(&draft.storage) { spareItemStorage = draft.storage }
    return true
  }

  /// The item as handed over: the feed's authors when it has none (JSON Feed 1.1: those read
  /// so far; feeds write them before `items`), `content_html` after `--html` (its relative
  /// URIs resolved against the document's URL).
  private func treat(_ draft: borrowing JSONItemDraft) {
    let storage = draft.storage
    let item = draft.item
    if storage.count(item, \.authors) == 0 {
      JSONPeople.copyFeedAuthors(
        list: Block<ChannelFields>.root.slot(\.authors), single: channelDraft.slot(\.author),
        from: channel.storage, to: item.slot(\.authors), in: storage)
    }
    guard let content = storage.text(item, \.content) else { return }
    let type = storage.value(item, \.contentType).map(TextType.init(mimeType:))
    let (treated, newType) = html.apply(content, type: type, base: documentURL)
    if let treated {
      treated.withUnsafeBufferPointer { storage.setText(item, \.content, $0) }
      storage.setType(item, \.contentType, newType)
    }
  }

  /// A storage for the next item: the last one's, when nobody kept it, else a new one.
  private func takeItemStorage() -> RecordStorage {
    if let spare = spareItemStorage.take() {
      spare.reset()
      return spare
    }
    return RecordStorage(rootCount: ItemFields.fieldCount, bytes: 4096, slots: 256)
  }

  /// An empty object in the slot at `index`, replacing what it held.
  private func newObject<Schema>(at index: Int, in storage: RecordStorage) -> Block<Schema> {
    storage.clear(at: index)
    return Block(storage.object(at: index, count: Schema.fieldCount))
  }

  private func sendChannel() {
    guard !channelSent, let version else { return }
    channelSent = true
    channel.version = version
    JSONPeople.settle(
      list: Block<ChannelFields>.root.slot(\.authors), single: channelDraft.slot(\.author),
      in: channel.storage)
    emit(.channel(channel))
    for waiting in itemsWaitingForVersion { emit(.item(waiting)) }
    itemsWaitingForVersion = []
    if !isKnownUniquelyReferenced(&channel.storage) { channel.storage = channel.storage.copy() }
  }

  // MARK: Values

  func jsonString(_ bytes: UnsafeBufferPointer<UInt8>, mayHoldControls: Bool) -> Bool {
    // yajl decodes `\u001b` into the byte itself: controls go here, as XML's do before libxml2.
    guard !mayHoldControls || ControlCharacters.firstControl(bytes) == nil else {
      var scratch: [UInt8] = []
      swap(&scratch, &controlFreeScratch)
      defer { swap(&scratch, &controlFreeScratch) }
      return ControlCharacters.withoutControls(bytes, scratch: &scratch) { clean(string: $0) }
    }
    return clean(string: bytes)
  }

  /// A string value with no C0 control but tab, LF and CR.
  private func clean(string bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    switch context {
    case .feed: return feedString(bytes)
    case .item: itemString(bytes)
    case .tagList:
      if let item, !bytes.isEmpty { item.storage.append(item.item, \.categories, text: bytes) }
    case .hub:
      if key == .url, let hub = Self.trimmed(bytes) {
        let storage = channel.storage
        storeURL(
          hub, in: storage,
          at: storage.appendEntry(toListAt: Block<ChannelFields>.root.slot(\.hubs)))
      }
    case .attachment:
      guard let item, let attachment = item.storage.existing(item.draft, \.attachment) else {
        break
      }
      switch key {
      case .url: storeURL(bytes, in: item.storage, at: attachment.slot(\.url))
      case .mimeType: Self.store(bytes, in: item.storage, at: attachment.slot(\.type))
      case .title: Self.store(bytes, in: item.storage, at: attachment.slot(\.title))
      default: break
      }
    case let context where context.isPerson:
      guard let person else { break }
      switch key {
      case .name: Self.store(bytes, in: person.storage, at: person.block.slot(\.name))
      case .url: storeURL(bytes, in: person.storage, at: person.block.slot(\.uri))
      default: break
      }
    default: break
    }
    return true
  }

  private func feedString(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let storage = channel.storage
    let root = Block<ChannelFields>.root
    switch key {
    case .version:
      let text = String(decoding: bytes, as: UTF8.self)
      guard let known = Self.version(text) else {
        return stop(.notAFeed, "the document is JSON, not a JSON Feed (version \"\(text)\")")
      }
      version = known
      // Items read before the version (an unusual key order) can go now.
      if !itemsWaitingForVersion.isEmpty { sendChannel() }
    case .title:
      if let title = Self.trimmed(bytes) {
        storage.setText(root, \.title, UnsafeBufferPointer(rebasing: title))
        storage.setText(root, \.titleType, "text/plain")
      } else {
        storage.clear(root, \.title)
        storage.clear(root, \.titleType)
      }
    case .homePageURL: storeURL(bytes, in: storage, at: root.slot(\.link))
    case .feedURL: storeURL(bytes, in: storage, at: root.slot(\.selfLink))
    case .description: Self.store(bytes, in: storage, at: root.slot(\.description))
    case .icon: storeURL(bytes, in: storage, at: root.slot(\.image))
    case .favicon: storeURL(bytes, in: storage, at: root.slot(\.icon))
    case .language: Self.store(bytes, in: storage, at: root.slot(\.language))
    default: break
    }
    return true
  }

  private func itemString(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let item else { return }
    let storage = item.storage
    switch key {
    case .id: Self.store(bytes, in: storage, at: item.item.slot(\.id))
    case .url: storeURL(bytes, in: storage, at: item.draft.slot(\.url))
    case .externalURL: storeURL(bytes, in: storage, at: item.draft.slot(\.externalURL))
    case .title:
      Self.store(Self.trimmed(bytes) ?? bytes[0..<0], in: storage, at: item.item.slot(\.title))
    case .contentHTML: Self.store(bytes, in: storage, at: item.item.slot(\.content))
    case .contentText: Self.store(bytes, in: storage, at: item.draft.slot(\.contentText))
    case .summary: Self.store(bytes, in: storage, at: item.item.slot(\.summary))
    case .image: storeURL(bytes, in: storage, at: item.item.slot(\.image))
    case .datePublished: storeDate(bytes, in: storage, item.item, \.published)
    case .dateModified: storeDate(bytes, in: storage, item.item, \.updated)
    case .language: Self.store(bytes, in: storage, at: item.item.slot(\.language))
    default: break
    }
  }

  func jsonNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    switch (context, key) {
    // JSON Feed 1.1 asks readers to take a numeric id as its text.
    case (.item, .id):
      if let item { Self.store(bytes, in: item.storage, at: item.item.slot(\.id)) }
    case (.attachment, .sizeInBytes):
      if let item, let attachment = item.storage.existing(item.draft, \.attachment) {
        item.storage.set(attachment, \.length, Self.integer(bytes))
      }
    case (.attachment, .durationInSeconds):
      if let item, let attachment = item.storage.existing(item.draft, \.attachment) {
        let seconds = Double(String(decoding: bytes, as: UTF8.self)).flatMap {
          $0.isFinite && $0 >= 0 ? $0 : nil
        }
        item.storage.set(attachment, \.duration, seconds)
      }
    case (.feed, .version):
      return stop(.notAFeed, "the document is JSON, not a JSON Feed (a numeric version)")
    default: break
    }
    return true
  }

  func jsonBool(_ value: Bool) -> Bool {
    if context == .feed, key == .expired {
      channel.storage.set(RecordSlot(flag: value), at: Block<ChannelFields>.root.slot(\.expired))
    }
    return true
  }

  func jsonNull() -> Bool { true }

  // MARK: Helpers

  private func stop(_ kind: FeedParseFailure.Kind, _ message: String) -> Bool {
    failure = FeedParseFailure(kind: kind, message: message)
    return false
  }

  /// Stores `bytes` at `index`, or empties the slot for no bytes: a later key's empty value
  /// takes an earlier one's place, as an assignment would.
  private static func store(
    _ bytes: UnsafeBufferPointer<UInt8>, in storage: RecordStorage, at index: Int
  ) {
    if bytes.isEmpty { storage.clear(at: index) } else { storage.setText(bytes, at: index) }
  }

  private static func store(
    _ bytes: Slice<UnsafeBufferPointer<UInt8>>, in storage: RecordStorage, at index: Int
  ) {
    store(UnsafeBufferPointer(rebasing: bytes), in: storage, at: index)
  }

  /// The bytes without surrounding white space, nil when that leaves nothing.
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>)
    -> Slice<UnsafeBufferPointer<UInt8>>?
  {
    var slice = bytes[...]
    while let first = slice.first, first.isJSONSpace { slice = slice.dropFirst() }
    while let last = slice.last, last.isJSONSpace { slice = slice.dropLast() }
    return slice.isEmpty ? nil : slice
  }

  /// A URL resolved against the document's URL, or nothing for a blank one.
  private func storeURL(
    _ bytes: UnsafeBufferPointer<UInt8>, in storage: RecordStorage, at index: Int
  ) {
    guard let trimmed = Self.trimmed(bytes) else { return storage.clear(at: index) }
    storeURL(trimmed, in: storage, at: index)
  }

  private func storeURL(
    _ trimmed: Slice<UnsafeBufferPointer<UInt8>>, in storage: RecordStorage, at index: Int
  ) {
    storage.setURL(UnsafeBufferPointer(rebasing: trimmed), at: index, base: documentURL)
  }

  private func storeDate(
    _ bytes: UnsafeBufferPointer<UInt8>, in storage: RecordStorage, _ block: Block<ItemFields>,
    _ field: KeyPath<ItemFields, Field<FeedDate>>
  ) {
    guard let trimmed = Self.trimmed(bytes) else { return storage.clear(block, field) }
    storage.setDate(block, field, UnsafeBufferPointer(rebasing: trimmed))
  }

  /// `size_in_bytes` as an integer; a number with a fraction or an exponent is not one.
  private static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    Int64(String(decoding: bytes, as: UTF8.self)).flatMap { $0 >= 0 ? $0 : nil }
  }

  /// jsonfeed.org's version URLs, and the bare numbers some publishers write instead.
  static func version(_ text: String) -> FeedVersion? {
    var value = Substring(text)
    for prefix in ["https://jsonfeed.org/version/", "http://jsonfeed.org/version/"]
    where value.hasPrefix(prefix) {
      value = value.dropFirst(prefix.count)
    }
    if value.hasSuffix("/") { value = value.dropLast() }
    switch value {
    case "1", "1.0": return .json10
    case "1.1": return .json11
    default: return nil
    }
  }
}

@available(*, unavailable)
extension JSONFeedBuilder: Sendable {}

extension UInt8 {
  fileprivate var isJSONSpace: Bool {
    self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D
  }
}
