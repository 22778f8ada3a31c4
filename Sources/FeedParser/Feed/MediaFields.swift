/// The elements of Media RSS that a field names.
enum MediaElement: UInt8 {
  case group, content, thumbnail, title, description, keywords, category, credit, player
  case rating, restriction, copyright, license, community, starRating, statistics, tags
}

/// Media RSS (`media:`) into `MediaInfo`. A `media:group` and a `media:content` are
/// containers whose children are merged into the record's one object; for a single-valued
/// field the first in document order wins. `media:content` also becomes an enclosure (the
/// builder does that, as before).
enum MediaFields {
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

  static let categoryScheme = "http://search.yahoo.com/mrss/category_schema"

  static func start<Record: NamespacedRecord>(
    _ element: MediaElement, _ attributes: XMLAttributes, _ record: inout Record,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    let base = scope.base
    switch element {
    case .group:
      return .children
    case .content:
      var content = MediaInfo.Content(
        url: attributes.value("url").map { NamespaceScope.resolve($0, against: base) })
      content.type = attributes.trimmedValue("type")
      content.medium = attributes.trimmedValue("medium")
      content.isDefault = attributes.value("isDefault").flatMap(boolean)
      content.expression = attributes.trimmedValue("expression")
      content.bitrate = attributes.decimal("bitrate")
      content.framerate = attributes.decimal("framerate")
      content.samplingRate = attributes.decimal("samplingrate")
      content.channels = attributes.integer("channels")
      content.duration = attributes.decimal("duration")
      content.width = attributes.integer("width")
      content.height = attributes.integer("height")
      content.lang = attributes.trimmedValue("lang")
      content.fileSize = attributes.value("fileSize").flatMap { Int64($0.trimmingSpaces()) }
      record.withMedia { $0.contents.append(content) }
      scope.mediaContentDepth = scope.depth
      return .children
    case .thumbnail:
      guard let url = attributes.trimmedValue("url") else { return .ignore }
      var thumbnail = MediaInfo.Thumbnail(url: NamespaceScope.resolve(url, against: base))
      thumbnail.width = attributes.integer("width")
      thumbnail.height = attributes.integer("height")
      thumbnail.time = attributes.trimmedValue("time")
      record.withMedia { $0.thumbnails.append(thumbnail) }
      return .ignore
    case .player:
      guard let url = attributes.trimmedValue("url") else { return .ignore }
      record.withMedia { media in
        guard media.player == nil else { return }
        var player = MediaInfo.Player(url: NamespaceScope.resolve(url, against: base))
        player.width = attributes.integer("width")
        player.height = attributes.integer("height")
        media.player = player
      }
      return .ignore
    case .community:
      scope.mediaCommunityDepth = scope.depth
      return .children
    case .starRating:
      record.withMedia { media in
        var community = media.community ?? MediaInfo.Community()
        guard community.starRating == nil else { return }
        var rating = MediaInfo.Community.StarRating()
        rating.average = attributes.decimal("average")
        rating.count = attributes.integer("count")
        rating.min = attributes.decimal("min")
        rating.max = attributes.decimal("max")
        community.starRating = rating
        media.community = community
      }
      return .ignore
    case .statistics:
      record.withMedia { media in
        var community = media.community ?? MediaInfo.Community()
        if community.views == nil { community.views = attributes.integer("views") }
        if community.favorites == nil {
          community.favorites = attributes.integer("favorites")
        }
        media.community = community
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

  static func text<Record: NamespacedRecord>(
    _ element: MediaElement, _ text: String, type: String?, _ record: inout Record,
    _ scope: inout NamespaceScope
  ) {
    let base = scope.base
    let trimmed = text.trimmingSpaces()
    let (first, second) = scope.pendingAttributes
    scope.pendingAttributes = (nil, nil)
    record.withMedia { media in
      switch element {
      case .title where media.title == nil && !trimmed.isEmpty:
        media.title = trimmed
        media.titleType = type
      case .description where media.description == nil && !trimmed.isEmpty:
        media.description = text
        media.descriptionType = type
      case .keywords:
        DistinctList.append(
          contentsOf: ListText.commaSeparated(trimmed), to: &media.keywords,
          index: &scope.mediaKeywordIndex)
      case .category where !trimmed.isEmpty:
        let tag = FeedTag(
          term: trimmed, scheme: first.flatMap(Record.nonEmpty) ?? categoryScheme,
          label: second.flatMap(Record.nonEmpty))
        DistinctList.append(tag, to: &media.categories, index: &scope.mediaCategoryIndex)
      case .credit where !trimmed.isEmpty:
        media.credits.append(
          MediaInfo.Credit(
            name: trimmed, role: first.flatMap(Record.nonEmpty),
            scheme: second.flatMap(Record.nonEmpty) ?? "urn:ebu"))
      case .rating where media.rating == nil && !trimmed.isEmpty:
        media.rating = MediaInfo.Rating(
          value: trimmed, scheme: first.flatMap(Record.nonEmpty) ?? "urn:simple")
      case .restriction where media.restriction == nil:
        var restriction = MediaInfo.Restriction(value: trimmed.isEmpty ? nil : trimmed)
        restriction.relationship = first.flatMap(Record.nonEmpty)
        restriction.type = second.flatMap(Record.nonEmpty)
        media.restriction = restriction
      case .license where media.license == nil:
        var license = MediaInfo.License(
          url: first.flatMap(Record.nonEmpty).map { NamespaceScope.resolve($0, against: base) })
        license.type = second.flatMap(Record.nonEmpty)
        license.text = trimmed.isEmpty ? nil : trimmed
        media.license = license
      case .copyright where media.copyright == nil && !trimmed.isEmpty:
        media.copyright = trimmed
      case .tags where !trimmed.isEmpty:
        var community = media.community ?? MediaInfo.Community()
        community.tags += ListText.commaSeparated(trimmed)
        media.community = community
      default:
        break
      }
    }
    if element == .category, !trimmed.isEmpty {
      record.addCategory(
        trimmed, scheme: first.flatMap(Record.nonEmpty) ?? categoryScheme,
        label: second.flatMap(Record.nonEmpty), isCore: false, index: &scope.tagIndex)
    }
  }

  /// `plain` and `html`, Media RSS's names, as MIME types.
  static func textType(_ type: String) -> String {
    switch type.trimmingSpaces().lowercased() {
    case "html": return "text/html"
    default: return "text/plain"
    }
  }

  static func boolean(_ text: String) -> Bool? {
    switch text.trimmingSpaces().lowercased() {
    case "true": return true
    case "false": return false
    default: return nil
    }
  }

  static func number(_ text: String) -> Double? {
    let text = text.trimmingSpaces()
    if let plain = plainDecimal(text) { return plain }
    return Double(text).flatMap { $0.isFinite ? $0 : nil }
  }

  /// `Double(_:)` without `strtod` for the plain decimals podcast feeds write on every
  /// episode (soundbites, bitrates): `NamespacedNumber.decimal` on the text's bytes.
  static func plainDecimal(_ text: String) -> Double? {
    text.utf8.withContiguousStorageIfAvailable { NamespacedNumber.decimal($0) } ?? nil
  }

  static func integer(_ text: String) -> Int? { Int(text.trimmingSpaces()) }
}
