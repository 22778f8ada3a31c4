/// The elements of Media RSS that a field names.
enum MediaElement: UInt8 {
  case group, content, thumbnail, title, description, keywords, category, credit, player
  case rating, restriction, copyright, license, community, starRating, statistics, tags
}

/// Media RSS (`media:`) into the record's `media` object (`MediaFields`). A `media:group` and a
/// `media:content` are containers whose children are merged into the record's one object; for
/// a single-valued field the first in document order wins. `media:content` also becomes an
/// enclosure (the builder does that).
enum MediaReader {
  static let rows: [(String, FieldRoute)] = [
    ("group", .media(.group)), ("content", .media(.content)),
    ("thumbnail", .media(.thumbnail)), ("title", .media(.title)),
    ("description", .media(.description)), ("keywords", .media(.keywords)),
    ("category", .media(.category)), ("credit", .media(.credit)), ("player", .media(.player)),
    ("rating", .media(.rating)), ("restriction", .media(.restriction)),
    ("copyright", .media(.copyright)), ("license", .media(.license)),
    ("community", .media(.community)), ("starRating", .media(.starRating)),
    ("statistics", .media(.statistics)), ("tags", .media(.tags)),
  ]

  static let categoryScheme: StaticString = "http://search.yahoo.com/mrss/category_schema"

  static func start(
    _ element: MediaElement, _ attributes: XMLAttributes, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    let base = scope.base
    let storage = record.storage
    switch element {
    case .group:
      return .children
    case .content:
      let content = storage.append(record.media(), \.contents)
      attributes.storeResolved("url", in: storage, at: content.slot(\.url), base: base)
      attributes.store("type", in: storage, content, \.type)
      attributes.store("medium", in: storage, content, \.medium)
      if let isDefault = attributes.value("isDefault").flatMap(boolean) {
        storage.set(content, \.isDefault, flag: isDefault)
      }
      attributes.store("expression", in: storage, content, \.expression)
      attributes.storeDecimal("bitrate", in: storage, content, \.bitrate)
      attributes.storeDecimal("framerate", in: storage, content, \.framerate)
      attributes.storeDecimal("samplingrate", in: storage, content, \.samplingRate)
      attributes.storeInteger("channels", in: storage, content, \.channels)
      attributes.storeDecimal("duration", in: storage, content, \.duration)
      attributes.storeInteger("width", in: storage, content, \.width)
      attributes.storeInteger("height", in: storage, content, \.height)
      attributes.store("lang", in: storage, content, \.lang)
      attributes.storeInteger("fileSize", in: storage, content, \.fileSize)
      scope.mediaContentDepth = scope.depth
      return .children
    case .thumbnail:
      guard attributes.hasValue("url") else { return .ignore }
      let thumbnail = storage.append(record.media(), \.thumbnails)
      attributes.storeURL("url", in: storage, thumbnail, \.url, base: base)
      attributes.storeInteger("width", in: storage, thumbnail, \.width)
      attributes.storeInteger("height", in: storage, thumbnail, \.height)
      attributes.store("time", in: storage, thumbnail, \.time)
      return .ignore
    case .player:
      guard attributes.hasValue("url") else { return .ignore }
      let media = record.media()
      guard !storage.has(media, \.player) else { return .ignore }
      let player = storage.object(media, \.player)
      attributes.storeURL("url", in: storage, player, \.url, base: base)
      attributes.storeInteger("width", in: storage, player, \.width)
      attributes.storeInteger("height", in: storage, player, \.height)
      return .ignore
    case .community:
      scope.mediaCommunityDepth = scope.depth
      return .children
    case .starRating:
      let community = storage.object(record.media(), \.community)
      guard !storage.has(community, \.starRating) else { return .ignore }
      let rating = storage.object(community, \.starRating)
      attributes.storeDecimal("average", in: storage, rating, \.average)
      attributes.storeInteger("count", in: storage, rating, \.count)
      attributes.storeDecimal("min", in: storage, rating, \.min)
      attributes.storeDecimal("max", in: storage, rating, \.max)
      return .ignore
    case .statistics:
      let community = storage.object(record.media(), \.community)
      if !storage.has(community, \.views) {
        attributes.storeInteger("views", in: storage, community, \.views)
      }
      if !storage.has(community, \.favorites) {
        attributes.storeInteger("favorites", in: storage, community, \.favorites)
      }
      return .ignore
    case .title, .description:
      return .text(type: attributes.value("type").map(textType))
    case .category:
      scope.pendingAttributes = (attributes.value("scheme"), attributes.value("label"))
      return .text(type: nil)
    case .credit:
      scope.pendingAttributes = (attributes.value("role"), attributes.value("scheme"))
      return .text(type: nil)
    case .rating:
      scope.pendingAttributes = (attributes.value("scheme"), nil)
      return .text(type: nil)
    case .restriction:
      scope.pendingAttributes = (attributes.value("relationship"), attributes.value("type"))
      return .text(type: nil)
    case .license:
      scope.pendingAttributes = (attributes.value("href"), attributes.value("type"))
      return .text(type: nil)
    case .keywords, .copyright, .tags:
      return .text(type: nil)
    }
  }

  static func text(
    _ element: MediaElement, _ text: UnsafeBufferPointer<UInt8>, type: TextType?,
    _ record: NamespacedRecord, _ scope: inout NamespaceScope
  ) {
    let trimmed = text.trimmedOfXMLSpace
    let (first, second) = scope.pendingAttributes
    scope.pendingAttributes = (nil, nil)
    let firstValue = first.flatMap(NamespaceScope.nonEmpty)
    let secondValue = second.flatMap(NamespaceScope.nonEmpty)
    let storage = record.storage
    let media = record.media()
    switch element {
    case .title where !storage.has(media, \.title) && !trimmed.isEmpty:
      storage.setText(media, \.title, trimmed)
      if let type { storage.setType(media, \.titleType, type) }
    case .description where !storage.has(media, \.description) && !trimmed.isEmpty:
      storage.setText(media, \.description, text)
      if let type { storage.setType(media, \.descriptionType, type) }
    case .keywords:
      let list = media.slot(\.keywords)
      ListText.withParts(of: trimmed, separatedBy: UInt8(ascii: ",")) { keywords in
        for keyword in keywords {
          DistinctList.appendText(
            keyword, toListAt: list, in: storage, index: &scope.mediaKeywordIndex)
        }
      }
    case .category where !trimmed.isEmpty:
      withText(firstValue, default: categoryScheme) { scheme in
        withText(secondValue) { label in
          DistinctList.appendTag(
            term: trimmed, scheme: scheme, label: label, toListAt: media.slot(\.categories),
            in: storage, index: &scope.mediaCategoryIndex)
          record.addCategory(
            trimmed, scheme: scheme, label: label, isCore: false, index: &scope.tagIndex)
        }
      }
    case .credit where !trimmed.isEmpty:
      let credit = storage.append(media, \.credits)
      storage.setText(credit, \.name, trimmed)
      if let firstValue { storage.setText(credit, \.role, firstValue) }
      storage.setText(credit, \.scheme, secondValue ?? "urn:ebu")
    case .rating where !storage.has(media, \.rating) && !trimmed.isEmpty:
      let rating = storage.object(media, \.rating)
      storage.setText(rating, \.value, trimmed)
      storage.setText(rating, \.scheme, firstValue ?? "urn:simple")
    case .restriction where !storage.has(media, \.restriction):
      let restriction = storage.object(media, \.restriction)
      if !trimmed.isEmpty { storage.setText(restriction, \.value, trimmed) }
      if let firstValue { storage.setText(restriction, \.relationship, firstValue) }
      if let secondValue { storage.setText(restriction, \.type, secondValue) }
    case .license where !storage.has(media, \.license):
      let license = storage.object(media, \.license)
      if let firstValue {
        storage.setText(license, \.url, NamespaceScope.resolve(firstValue, against: scope.base))
      }
      if let secondValue { storage.setText(license, \.type, secondValue) }
      if !trimmed.isEmpty { storage.setText(license, \.text, trimmed) }
    case .copyright where !storage.has(media, \.copyright) && !trimmed.isEmpty:
      storage.setText(media, \.copyright, trimmed)
    case .tags where !trimmed.isEmpty:
      let community = storage.object(media, \.community)
      ListText.withParts(of: trimmed, separatedBy: UInt8(ascii: ",")) { tags in
        for tag in tags { storage.append(community, \.tags, text: tag) }
      }
    default:
      break
    }
  }

  /// `body` with the UTF-8 of `text`, else of `fallback`, else nil.
  private static func withText(
    _ text: String?, default fallback: StaticString? = nil,
    _ body: (UnsafeBufferPointer<UInt8>?) -> Void
  ) {
    if var text {
      text.withUTF8 { body($0) }
    } else {
      body(fallback?.bytes)
    }
  }

  /// `plain` and `html`, Media RSS's names, as MIME types.
  static func textType(_ type: String) -> TextType {
    type.trimmingSpaces().lowercased() == "html" ? .html : .plain
  }

  static func boolean(_ text: String) -> Bool? {
    switch text.trimmingSpaces().lowercased() {
    case "true": return true
    case "false": return false
    default: return nil
    }
  }

  /// A number with a fraction, as `Double(_:)` reads the trimmed text (finite only).
  static func number(_ text: String) -> Double? {
    let text = text.trimmingSpaces()
    if let plain = plainDecimal(text) { return plain }
    return Double(text).flatMap { $0.isFinite ? $0 : nil }
  }

  /// `number` on bytes: a plain decimal in place, else through the text.
  static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    NamespacedNumber.decimal(bytes.trimmedOfXMLSpace)
      ?? number(String(decoding: bytes, as: UTF8.self))
  }

  /// `Double(_:)` without `strtod` for the plain decimals podcast feeds write on every
  /// episode (soundbites, bitrates): `NamespacedNumber.decimal` on the text's bytes.
  static func plainDecimal(_ text: String) -> Double? {
    text.utf8.withContiguousStorageIfAvailable { NamespacedNumber.decimal($0) } ?? nil
  }

  static func integer(_ text: String) -> Int? { Int(text.trimmingSpaces()) }
}
