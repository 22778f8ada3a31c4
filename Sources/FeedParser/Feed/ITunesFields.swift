/// The elements of Apple's podcast namespace that a field names.
enum ITunesElement: UInt8 {
  case owner, name, email, image, explicit, block, complete, type, newFeedURL, category
  case keywords, title, subtitle, summary, duration, episode, season, episodeType, order
  case closedCaptioned
}

/// Apple's podcast namespace (`itunes:`) into `ITunesInfo`. `itunes:author` is a core row
/// (it is an author when no other is given); the fallbacks into core fields are applied when
/// the record is complete (`NamespaceFallbacks`).
enum ITunesFields {
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
  static let tagScheme = "http://www.itunes.com/"

  static func start<Record: NamespacedRecord>(
    _ element: ITunesElement, _ attributes: XMLAttributes, _ record: inout Record,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    let base = scope.base
    switch element {
    case .owner:
      scope.iTunesOwnerDepth = scope.depth
      return .children
    case .name, .email:
      return scope.iTunesOwnerDepth == nil ? .ignore : .text(type: nil)
    case .image:
      // Apple's spec says href; feeds written from other docs say url.
      guard
        let reference = (attributes.value("href") ?? attributes.value("url")).flatMap(
          Record.nonEmpty)
      else { return .ignore }
      record.withITunes {
        if $0.image == nil { $0.image = NamespaceScope.resolve(reference, against: base) }
      }
      return .ignore
    case .category:
      let term = attributes.value("text")?.trimmingSpaces() ?? ""
      if !term.isEmpty {
        scope.iTunesCategoryPath.append((scope.depth, term))
        let path = scope.iTunesCategoryPath.map(\.term)
        record.withITunes { $0.categories.append(path) }
        record.addCategory(
          term, scheme: tagScheme, label: nil, isCore: false, index: &scope.tagIndex)
      }
      return .children
    case .keywords:
      // Some large publishers write the list as an attribute: `<itunes:keywords text="a, b"/>`.
      if let list = attributes.value("text") { text(.keywords, list, &record, &scope) }
      return .text(type: nil)
    default:
      return .text(type: nil)
    }
  }

  static func text<Record: NamespacedRecord>(
    _ element: ITunesElement, _ text: String, _ record: inout Record, _ scope: inout NamespaceScope
  ) {
    let base = scope.base
    let trimmed = text.trimmingSpaces()
    guard !trimmed.isEmpty else { return }
    let keywords = element == .keywords ? ListText.commaSeparated(trimmed) : []
    record.withITunes { itunes in
      switch element {
      case .name:
        if itunes.owner == nil { itunes.owner = FeedPerson() }
        if itunes.owner!.name == nil { itunes.owner!.name = trimmed }
      case .email:
        if itunes.owner == nil { itunes.owner = FeedPerson() }
        if itunes.owner!.email == nil { itunes.owner!.email = trimmed }
      case .explicit: itunes.explicit = explicitValue(trimmed)
      case .block: itunes.block = yesNo(trimmed)
      case .complete: itunes.complete = yesNo(trimmed)
      case .closedCaptioned: itunes.closedCaptioned = yesNo(trimmed)
      case .type: itunes.type = trimmed
      case .newFeedURL: itunes.newFeedURL = NamespaceScope.resolve(trimmed, against: base)
      case .keywords:
        DistinctList.append(
          contentsOf: keywords, to: &itunes.keywords, index: &scope.iTunesKeywordIndex)
      case .title: itunes.title = trimmed
      case .subtitle: itunes.subtitle = text
      case .summary: itunes.summary = text
      case .duration:
        if let seconds = duration(trimmed) {
          itunes.duration = seconds
        } else {
          itunes.durationRaw = trimmed
        }
      case .episode: itunes.episode = Int(trimmed)
      case .season: itunes.season = Int(trimmed)
      case .order: itunes.order = Int(trimmed)
      case .episodeType: itunes.episodeType = trimmed
      case .owner, .image, .category: break
      }
    }
    record.addTags(keywords, scheme: tagScheme, index: &scope.tagIndex)
  }

  /// A number or flag read from an element's trimmed, non-empty bytes (see
  /// `NamespacedNumbers.swift`), to be set on the record's `itunes`.
  enum Value {
    case duration(Int)
    case integer(ITunesElement, Int)
    case flag(ITunesElement, Bool)

    func assign(to itunes: inout ITunesInfo) {
      switch self {
      case .duration(let seconds): itunes.duration = seconds
      case .integer(.episode, let number): itunes.episode = number
      case .integer(.season, let number): itunes.season = number
      case .integer(_, let number): itunes.order = number
      case .flag(.explicit, let flag): itunes.explicit = flag
      case .flag(.block, let flag): itunes.block = flag
      case .flag(.complete, let flag): itunes.complete = flag
      case .flag(_, let flag): itunes.closedCaptioned = flag
      }
    }
  }

  /// The value of a number or flag element, or nil when `text` needs the `String` path: the
  /// answers are `text(_:_:_:_:)`'s for every text read here.
  static func value(_ element: ITunesElement, bytes text: UnsafeBufferPointer<UInt8>) -> Value? {
    switch element {
    case .duration: return duration(utf8: text).map(Value.duration)
    case .episode, .season, .order:
      return NamespacedNumber.integer(text).map { .integer(element, $0) }
    case .explicit:
      return explicitValue(text).map { .flag(element, $0) }
    case .block, .complete, .closedCaptioned:
      return yesNo(text).map { .flag(element, $0) }
    default:
      return nil
    }
  }

  /// yes/true/explicit and no/false/clean, in any case; nil for anything else.
  static func explicitValue(_ text: String) -> Bool? { explicitValue(text.utf8) }

  static func explicitValue(_ text: some Collection<UInt8>) -> Bool? {
    if let word = yesNo(text) { return word }
    if equalsIgnoringCase(text, "true") || equalsIgnoringCase(text, "explicit") { return true }
    if equalsIgnoringCase(text, "false") || equalsIgnoringCase(text, "clean") { return false }
    return nil
  }

  /// `block`, `complete` and `isClosedCaptioned` say yes or no, nothing else.
  static func yesNo(_ text: String) -> Bool? { yesNo(text.utf8) }

  static func yesNo(_ text: some Collection<UInt8>) -> Bool? {
    if equalsIgnoringCase(text, "yes") { return true }
    if equalsIgnoringCase(text, "no") { return false }
    return nil
  }

  /// ASCII case-insensitive equality with a lower-case word, on UTF-8 bytes (no lowered copy:
  /// these run on every episode of a podcast feed).
  static func equalsIgnoringCase(_ bytes: some Collection<UInt8>, _ word: StaticString) -> Bool {
    guard bytes.count == word.utf8CodeUnitCount else { return false }
    var index = 0
    for byte in bytes {
      let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
      if lowered != word.utf8Start[index] { return false }
      index += 1
    }
    return true
  }

  /// `HH:MM:SS`, `MM:SS` or seconds, each part of ASCII digits (a fraction of the last is
  /// dropped); nil for anything else. On UTF-8 bytes: podcast feeds give one an episode.
  static func duration(_ text: String) -> Int? { duration(utf8: text.utf8) }

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
