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
  @exclusivity(unchecked) private var channelSent = false
  @exclusivity(unchecked) private var feedAuthor: FeedPerson?
  @exclusivity(unchecked) private var feedAuthorList: [FeedPerson] = []
  @exclusivity(unchecked) private var item = JSONItemDraft()
  @exclusivity(unchecked) private var person = FeedPerson()
  @exclusivity(unchecked) private var attachment = JSONAttachmentDraft()
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
    case .item: item = JSONItemDraft()
    case .feedAuthor, .feedAuthorListEntry, .itemAuthor, .itemAuthorListEntry: person = FeedPerson()
    case .attachment: attachment = JSONAttachmentDraft()
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
    case .feedAuthor: feedAuthor = person
    case .feedAuthorListEntry: feedAuthorList.append(person)
    case .itemAuthor: item.author = person
    case .itemAuthorListEntry: item.authorList.append(person)
    case .attachment:
      if let enclosure = attachment.enclosure { item.enclosures.append(enclosure) }
    default: break
    }
    return true
  }

  private func finishItem() -> Bool {
    let finished = treated(item.takeItem(index: itemIndex))
    itemIndex += 1
    guard version != nil else {
      itemsWaitingForVersion.append(finished)
      return true
    }
    sendChannel()
    emit(.item(consume finished))
    return true
  }

  /// The item as handed over: the feed's authors when it has none, `content_html` after
  /// `--html` (its relative URIs resolved against the document's URL).
  private func treated(_ item: consuming FeedItem) -> FeedItem {
    var item = item
    // JSON Feed 1.1: an item without authors has the feed's (those read so far: feeds write
    // them before `items`).
    if item.authors.isEmpty { item.authors = people(list: feedAuthorList, single: feedAuthor) }
    if let content = item.contentUTF8 {
      (item.contentUTF8, item.contentType) = html.apply(
        content, type: item.contentType, base: documentURL)
    }
    return item
  }

  private func sendChannel() {
    guard !channelSent, let version else { return }
    channelSent = true
    channel.version = version
    channel.authors = people(list: feedAuthorList, single: feedAuthor)
    emit(.channel(channel))
    for waiting in itemsWaitingForVersion { emit(.item(waiting)) }
    itemsWaitingForVersion = []
  }

  // MARK: Values

  func jsonString(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    // yajl decodes `\u001b` into the byte itself: controls go here, as XML's do before libxml2.
    guard ControlCharacters.firstControl(bytes) == nil else {
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
    case .tagList: item.tags.append(String(decoding: bytes, as: UTF8.self))
    case .hub:
      if key == .url, let hub = url(bytes) { channel.hubs.append(hub) }
    case .attachment:
      switch key {
      case .url: attachment.url = url(bytes)
      case .mimeType: attachment.type = text(bytes)
      case .title: attachment.title = text(bytes)
      default: break
      }
    case let context where context.isPerson:
      switch key {
      case .name: person.name = text(bytes)
      case .url: person.uri = url(bytes)
      default: break
      }
    default: break
    }
    return true
  }

  private func feedString(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
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
      channel.title = trimmed(bytes)
      channel.titleType = channel.title == nil ? nil : "text/plain"
    case .homePageURL: channel.link = url(bytes)
    case .feedURL: channel.selfLink = url(bytes)
    case .description: channel.description = text(bytes)
    case .icon: channel.image = url(bytes)
    case .favicon: channel.icon = url(bytes)
    case .language: channel.language = text(bytes)
    default: break
    }
    return true
  }

  private func itemString(_ bytes: UnsafeBufferPointer<UInt8>) {
    switch key {
    case .id: item.id = text(bytes)
    case .url: item.url = url(bytes)
    case .externalURL: item.externalURL = url(bytes)
    case .title: item.title = trimmed(bytes)
    case .contentHTML: item.contentHTML = bytes.isEmpty ? nil : Array(bytes)
    case .contentText: item.contentText = bytes.isEmpty ? nil : Array(bytes)
    case .summary: item.summary = bytes.isEmpty ? nil : Array(bytes)
    case .image: item.image = url(bytes)
    case .datePublished: item.published = date(bytes)
    case .dateModified: item.updated = date(bytes)
    case .language: item.language = text(bytes)
    default: break
    }
  }

  func jsonNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    switch (context, key) {
    // JSON Feed 1.1 asks readers to take a numeric id as its text.
    case (.item, .id): item.id = text(bytes)
    case (.attachment, .sizeInBytes): attachment.length = Self.integer(bytes)
    case (.attachment, .durationInSeconds):
      attachment.duration = Double(String(decoding: bytes, as: UTF8.self)).flatMap {
        $0.isFinite && $0 >= 0 ? $0 : nil
      }
    case (.feed, .version):
      return stop(.notAFeed, "the document is JSON, not a JSON Feed (a numeric version)")
    default: break
    }
    return true
  }

  func jsonBool(_ value: Bool) -> Bool {
    if context == .feed, key == .expired { channel.expired = value }
    return true
  }

  func jsonNull() -> Bool { true }

  // MARK: Helpers

  private func stop(_ kind: FeedParseFailure.Kind, _ message: String) -> Bool {
    failure = FeedParseFailure(kind: kind, message: message)
    return false
  }

  private func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }

  private func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    var slice = bytes[...]
    while let first = slice.first, first.isJSONSpace { slice = slice.dropFirst() }
    while let last = slice.last, last.isJSONSpace { slice = slice.dropLast() }
    return slice.isEmpty ? nil : String(decoding: slice, as: UTF8.self)
  }

  private func url(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    trimmed(bytes).map { URIResolver.resolve($0, against: documentURL) }
  }

  private func date(_ bytes: UnsafeBufferPointer<UInt8>) -> FeedDate? {
    guard let text = trimmed(bytes) else { return nil }
    return FeedDateParser.parse(text).map { .instant($0) } ?? .raw(text)
  }

  private func people(list: [FeedPerson], single: FeedPerson?) -> [FeedPerson] {
    // 1.1's `authors` supersedes 1.0's `author`; publishers may give both for old readers.
    let people = list.isEmpty ? single.map { [$0] } ?? [] : list
    return people.filter { $0.name != nil || $0.uri != nil }
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
