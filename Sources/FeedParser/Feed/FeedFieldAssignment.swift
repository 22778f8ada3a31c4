/// Where a finished field's text goes: the item being read, else the channel; an author's parts
/// go to the author being read. Precedence follows feedparser where the contract is silent.
extension FeedDocumentBuilder {
  func assign(_ capture: TextCapture, text: String) {
    let trimmed = text.trimmingSpaces()
    guard !trimmed.isEmpty else { return }
    switch capture.element {
    case .title:
      guard !isInImage else { return }
      if item != nil {
        item!.item.title = trimmed
        item!.item.titleType = capture.type
      } else {
        channel.title = trimmed
        channel.titleType = capture.type
      }
    case .link:
      guard !isInImage else { return }
      let url = resolve(trimmed)
      if item != nil {
        item!.item.link = url
        item!.item.links.append(FeedLink(href: url, rel: "alternate", type: "text/html"))
      } else {
        channel.link = url
      }
    case .description, .summary:
      if item != nil {
        setSummary(text, type: capture.type)
      } else if capture.element == .description {
        channel.description = text
      }
    case .subtitle:
      if item == nil { channel.description = text }
    case .content, .contentEncoded:
      if item != nil && item!.item.content == nil {
        item!.item.content = text
        item!.item.contentType = capture.type
      }
    case .id:
      if item != nil { item!.item.id = trimmed } else { channel.id = trimmed }
    case .guid:
      guard item != nil else { return }
      item!.item.id = trimmed
      item!.guid = trimmed
      item!.guidIsPermalink = capture.isPermalink
    case .published:
      if item != nil {
        item!.item.published = date(trimmed)
      } else {
        channel.published = date(trimmed)
      }
    case .updated:
      if item != nil { item!.item.updated = date(trimmed) } else { channel.updated = date(trimmed) }
    case .dcDate:
      // The contract: an item's dc:date is its publication, a channel's its update.
      if item != nil {
        item!.item.published = date(trimmed)
      } else {
        channel.updated = date(trimmed)
      }
    case .created:
      if item == nil && channel.published == nil { channel.published = date(trimmed) }
    case .generator:
      if item == nil { channel.generator = trimmed }
    case .language:
      if item == nil { channel.language = trimmed }
    case .rights:
      if item == nil { channel.rights = text }
    case .icon:
      if item == nil { channel.icon = resolve(trimmed) }
    case .logo:
      if item == nil { channel.image = resolve(trimmed) }
    case .url:
      if person != nil {
        person!.person.uri = trimmed
      } else if isInImage {
        channel.image = resolve(trimmed)
      }
    case .name:
      if person != nil { person!.person.name = trimmed }
    case .email:
      if person != nil { person!.person.email = trimmed }
    case .uri:
      if person != nil { person!.person.uri = trimmed }
    case .personText:
      if let parsed = PersonTextParser.person(from: trimmed) { addAuthor(parsed) }
    case .itunesAuthor:
      guard let parsed = PersonTextParser.person(from: trimmed) else { return }
      if item != nil { item!.iTunesAuthor = parsed } else { channelITunesAuthor = parsed }
    case .category:
      addCategory(trimmed)
    case .comments:
      if item != nil { item!.item.comments = resolve(trimmed) }
    default:
      break
    }
  }

  /// feedparser: a second summary-like element (RSS description after an Atom summary, or the
  /// reverse) becomes the content when there is none yet.
  private func setSummary(_ text: String, type: String?) {
    if item!.item.summary == nil {
      item!.item.summary = text
      item!.item.summaryType = type
    } else if item!.item.content == nil {
      item!.item.content = text
      item!.item.contentType = type
    }
  }

  private func date(_ text: String) -> FeedDate {
    if let instant = FeedDateParser.parse(text) { return .instant(instant) }
    return .raw(text)
  }

  func addAuthor(_ author: FeedPerson) {
    if item != nil { item!.item.authors.append(author) } else { channel.authors.append(author) }
  }

  func addCategory(_ term: String) {
    let term = term.trimmingSpaces()
    guard !term.isEmpty else { return }
    if item != nil { item!.item.categories.append(term) } else { channel.categories.append(term) }
  }

  /// RSS `enclosure` and `media:content`; kept without a type, a length only when an integer.
  func addEnclosure(url: String?, type: String?, length: String?) {
    guard item != nil, let url = url?.trimmingSpaces(), !url.isEmpty else { return }
    item!.item.enclosures.append(
      FeedEnclosure(
        url: resolve(url), type: type.flatMap(Self.nonEmpty),
        length: length.flatMap { Int64($0.trimmingSpaces()) }))
  }

  /// An Atom link, or an `atom:link` in RSS. Like feedparser: `rel` defaults to `alternate`,
  /// `type` to `text/html` (`application/atom+xml` for `self`); the item's `link` is its last
  /// alternate HTML link.
  func addLink(_ attributes: XMLAttributes) {
    guard let rawHref = attributes.value("href") else { return }
    let href = resolve(rawHref)
    let rel = attributes.value("rel").flatMap(Self.nonEmpty) ?? "alternate"
    let type =
      attributes.value("type").flatMap(Self.nonEmpty)
      ?? (rel == "self" ? "application/atom+xml" : "text/html")
    let isHTML = type == "text/html" || type == "application/xhtml+xml"
    let length = attributes.value("length").flatMap { Int64($0.trimmingSpaces()) }
    if item != nil {
      item!.item.links.append(
        FeedLink(
          href: href, rel: rel, type: type, title: attributes.value("title").flatMap(Self.nonEmpty),
          length: length))
      if rel == "alternate" && isHTML { item!.item.link = href }
      if rel == "enclosure" {
        item!.item.enclosures.append(
          FeedEnclosure(
            url: href, type: attributes.value("type").flatMap(Self.nonEmpty), length: length))
      }
    } else if !isInImage {
      if rel == "self" {
        channel.selfLink = href
      } else if rel == "alternate" && isHTML {
        channel.link = href
      }
    }
  }

  private static func nonEmpty(_ text: String) -> String? {
    let trimmed = text.trimmingSpaces()
    return trimmed.isEmpty ? nil : trimmed
  }
}
