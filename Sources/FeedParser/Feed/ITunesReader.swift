import FeedPullSupport

/// The elements of Apple's podcast namespace that a field names.
enum ITunesElement: UInt8 {
  case owner, name, email, image, explicit, block, complete, type, newFeedURL, category
  case keywords, title, subtitle, summary, duration, episode, season, episodeType, order
  case closedCaptioned
}

/// Apple's podcast namespace (`itunes:`) into the record's `itunes` object (`ITunesFields`).
/// `itunes:author` is a core row (it is an author when no other is given); the fallbacks into
/// core fields are applied when the record is complete (`NamespaceFallbacks`).
enum ITunesReader {
  static let rows: [(String, FieldRoute)] = [
    ("owner", .itunes(.owner)), ("name", .itunes(.name)), ("email", .itunes(.email)),
    ("image", .itunes(.image)), ("explicit", .itunes(.explicit)), ("block", .itunes(.block)),
    ("complete", .itunes(.complete)), ("type", .itunes(.type)),
    ("new-feed-url", .itunes(.newFeedURL)), ("category", .itunes(.category)),
    ("keywords", .itunes(.keywords)), ("title", .itunes(.title)),
    ("subtitle", .itunes(.subtitle)), ("summary", .itunes(.summary)),
    ("duration", .itunes(.duration)), ("episode", .itunes(.episode)),
    ("season", .itunes(.season)), ("episodeType", .itunes(.episodeType)),
    ("order", .itunes(.order)), ("isClosedCaptioned", .itunes(.closedCaptioned)),
  ]

  /// The scheme feedparser gives iTunes categories and keywords as tags.
  static let tagScheme: StaticString = "http://www.itunes.com/"

  static func start(
    _ element: ITunesElement, _ attributes: XMLAttributes, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    switch element {
    case .owner:
      scope.iTunesOwnerDepth = scope.depth
      return .children
    case .name, .email:
      return scope.iTunesOwnerDepth == nil ? .ignore : .text(type: nil)
    case .image:
      // Apple's spec says href; feeds written from other docs say url.
      let name: StaticString = attributes.has("href") ? "href" : "url"
      guard attributes.hasValue(name) else { return .ignore }
      let itunes = record.itunes()
      if !record.storage.has(itunes, \.image) {
        attributes.storeURL(name, in: record.storage, itunes, \.image, base: scope.base)
      }
      return .ignore
    case .category:
      let term = attributes.value("text")?.trimmingSpaces() ?? ""
      if !term.isEmpty {
        scope.iTunesCategoryPath.append((scope.depth, term))
        let storage = record.storage
        let categories = record.itunes().slot(\.categories)
        let path = storage.appendEntry(toListAt: categories)
        for (_, name) in scope.iTunesCategoryPath {
          storage.setText(name, at: storage.appendEntry(toListAt: path))
        }
        var term = term
        term.withUTF8 { term in
          record.addCategory(
            term, scheme: tagScheme.bytes, label: nil, isCore: false, index: &scope.tagIndex)
        }
      }
      return .children
    case .keywords:
      // Some large publishers write the list as an attribute: `<itunes:keywords text="a, b"/>`.
      if var list = attributes.value("text") {
        list.withUTF8 { text(.keywords, $0, record, &scope) }
      }
      return .text(type: nil)
    default:
      return .text(type: nil)
    }
  }

  static func text(
    _ element: ITunesElement, _ text: UnsafeBufferPointer<UInt8>, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) {
    let trimmed = text.trimmedOfXMLSpace
    guard !trimmed.isEmpty else { return }
    let storage = record.storage
    let itunes = record.itunes()
    switch element {
    // Fields chosen by slot, not by a key path picked at run time: such a key path is built by
    // the runtime at each use (`swift_getKeyPath`, about 470 instructions), where a literal one
    // folds into a constant slot number.
    case .name, .email:
      let owner = storage.object(itunes, \.owner)
      let slot = element == .name ? owner.slot(\.name) : owner.slot(\.email)
      if storage[slot].kind == .empty { storage.setText(trimmed, at: slot) }
    case .explicit:
      if let flag = explicitValue(trimmed) {
        storage.set(itunes, \.explicit, flag: flag)
      } else {
        storage.clear(itunes, \.explicit)
      }
    case .block, .complete, .closedCaptioned:
      let slot =
        element == .block
        ? itunes.slot(\.block)
        : element == .complete ? itunes.slot(\.complete) : itunes.slot(\.closedCaptioned)
      if let flag = yesNo(trimmed) {
        storage.set(RecordSlot(flag: flag), at: slot)
      } else {
        storage.clear(at: slot)
      }
    case .type: storage.setText(itunes, \.type, trimmed)
    case .newFeedURL: storage.setURL(itunes, \.newFeedURL, trimmed, base: scope.base)
    case .keywords:
      ListText.withParts(of: trimmed, separatedBy: UInt8(ascii: ",")) { keywords in
        let list = itunes.slot(\.keywords)
        for keyword in keywords {
          DistinctList.appendText(
            keyword, toListAt: list, in: storage, index: &scope.iTunesKeywordIndex)
        }
        record.addTags(keywords, scheme: tagScheme.bytes, index: &scope.tagIndex)
      }
    case .title: storage.setText(itunes, \.title, trimmed)
    case .subtitle: storage.setText(itunes, \.subtitle, text)
    case .summary: storage.setText(itunes, \.summary, text)
    case .duration:
      if let seconds = duration(utf8: trimmed) {
        storage.set(itunes, \.duration, integer: Int64(seconds))
      } else {
        storage.setText(itunes, \.durationRaw, trimmed)
      }
    case .episode, .season, .order:
      let slot =
        element == .episode
        ? itunes.slot(\.episode)
        : element == .season ? itunes.slot(\.season) : itunes.slot(\.order)
      if let number = integer(trimmed) {
        storage.set(RecordSlot(integer: Int64(number)), at: slot)
      } else {
        storage.clear(at: slot)
      }
    case .episodeType: storage.setText(itunes, \.episodeType, trimmed)
    case .owner, .image, .category: break
    }
  }

  /// `Int(_:)` on the text: its digits in place, else through a `String` (`+5`).
  private static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
    NamespacedNumber.integer(text) ?? Int(String(decoding: text, as: UTF8.self))
  }

  /// yes/true/explicit and no/false/clean, in any case; nil for anything else.
  static func explicitValue(_ text: some Collection<UInt8>) -> Bool? {
    if let word = yesNo(text) { return word }
    if ASCIIWord.equalsIgnoringCase(text, "true") || ASCIIWord.equalsIgnoringCase(text, "explicit")
    {
      return true
    }
    if ASCIIWord.equalsIgnoringCase(text, "false") || ASCIIWord.equalsIgnoringCase(text, "clean") {
      return false
    }
    return nil
  }

  /// `block`, `complete` and `isClosedCaptioned` say yes or no, nothing else.
  static func yesNo(_ text: some Collection<UInt8>) -> Bool? {
    if ASCIIWord.equalsIgnoringCase(text, "yes") { return true }
    if ASCIIWord.equalsIgnoringCase(text, "no") { return false }
    return nil
  }

  /// `HH:MM:SS`, `MM:SS` or seconds, each part of ASCII digits (a fraction of the last is
  /// dropped); nil for anything else. On UTF-8 bytes: podcast feeds give one an episode.
  static func duration(utf8 text: some Sequence<UInt8>) -> Int? {
    var seconds = 0
    var part = 0
    var digits = 0
    var parts = 1
    var inFraction = false
    for byte in text {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if inFraction { continue }
        part = part * 10 + Int(byte - UInt8(ascii: "0"))
        digits += 1
        guard part < 1_000_000_000 else { return nil }
      case UInt8(ascii: ":") where !inFraction:
        guard digits > 0, parts < 3 else { return nil }
        seconds = seconds * 60 + part
        part = 0
        digits = 0
        parts += 1
      case UInt8(ascii: ".") where !inFraction:
        guard digits > 0 else { return nil }
        inFraction = true
      default:
        return nil
      }
    }
    guard digits > 0 else { return nil }
    return seconds * 60 + part
  }
}
