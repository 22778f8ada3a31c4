/// Where a finished field's text goes: the item being read, else the channel; an author's parts
/// go to the author being read. Precedence follows feedparser where docs/format.md is silent.
extension FeedDocumentBuilder {
  func assign(_ capture: TextCapture, text: String) {
    let trimmed = text.trimmingSpaces()
    guard !trimmed.isEmpty else { return }
    switch capture.element {
    case .title:
      guard !isInImage else { return }
      let (treatedTitle, type) = treated(trimmed, capture)
      let title = treatedTitle.trimmingSpaces()
      guard !title.isEmpty else { return }
      if originDepth != nil {
        item?.extras.origin?.title = title
      } else if item != nil {
        item!.item.title = title
        item!.item.titleType = type
      } else {
        channel.title = title
        channel.titleType = type
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
    case .description, .summary, .content, .contentEncoded:
      // An RSS image's own description is not the channel's.
      guard !isInImage else { return }
      if item != nil {
        assignItemBody(capture, utf8: Array(text.utf8))
      } else if capture.element == .description {
        channel.description = treated(text, capture).text.nonBlank
      }
    case .subtitle:
      if item == nil { channel.description = treated(text, capture).text.nonBlank }
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
      // An item's own language (`dc:language`), as a JSON Feed item's.
      if item != nil { item!.item.language = trimmed } else { channel.language = trimmed }
    case .rights:
      let rights = treated(text, capture).text.nonBlank
      if item != nil { item!.extras.rights = rights } else { channel.rights = rights }
    case .source:
      item?.extras.origin?.title = trimmed
    case .icon:
      if item == nil { channel.icon = resolve(trimmed) }
    case .logo:
      if item == nil { channel.image = resolve(trimmed) }
    case .url:
      if person != nil {
        person!.person.uri = resolve(trimmed)
      } else if isInImage {
        channel.image = resolve(trimmed)
      }
    case .name:
      if person != nil { person!.person.name = trimmed }
    case .email:
      if person != nil { person!.person.email = trimmed }
    case .uri:
      if person != nil { person!.person.uri = resolve(trimmed) }
    case .personText:
      if let parsed = PersonTextParser.person(from: trimmed) { addAuthor(parsed) }
    case .itunesAuthor:
      guard let parsed = PersonTextParser.person(from: trimmed) else { return }
      if item != nil {
        item!.iTunesAuthor = parsed
        item!.withITunes { $0.author = trimmed }
      } else {
        channelITunesAuthor = parsed
        channel.withITunes { $0.author = trimmed }
      }
    case .publisherText:
      if item == nil, channel.publisher == nil,
        let parsed = PersonTextParser.person(from: trimmed)
      {
        channel.publisher = parsed
      }
    case .contributorText:
      if let parsed = PersonTextParser.person(from: trimmed) { addContributor(parsed) }
    case .category:
      let (domain, _) = scope.pendingAttributes
      scope.pendingAttributes = (nil, nil)
      addCategory(trimmed, scheme: domain, label: nil)
    case .comments:
      if item != nil { item!.item.comments = resolve(trimmed) }
    case .commentsFeed:
      if item != nil && item!.extras.commentsFeed == nil {
        item!.extras.commentsFeed = resolve(trimmed)
      }
    case .commentsCount:
      if item != nil, let count = Int(trimmed) { item!.extras.commentsCount = count }
    default:
      break
    }
  }

  /// An item's summary or content, kept as UTF-8 (see `FeedItem.summaryUTF8`) and untrimmed.
  /// feedparser: a second summary-like element (RSS description after an Atom summary, or the
  /// reverse) becomes the content when there is none yet.
  func assignItemBody(_ capture: TextCapture, utf8 text: [UInt8]) {
    guard text.contains(where: { !$0.isXMLSpace }) else { return }
    let (text, type) = html.apply(text, type: capture.type, base: currentBase)
    guard text.contains(where: { !$0.isXMLSpace }) else { return }
    let isSummary = capture.element == .description || capture.element == .summary
    if isSummary && item!.item.summaryUTF8 == nil {
      item!.item.summaryUTF8 = text
      item!.item.summaryType = type
    } else if item!.item.contentUTF8 == nil {
      item!.item.contentUTF8 = text
      item!.item.contentType = type
    }
  }

  /// A field's text and type after `--html` (sanitized, rendered as text, or as it is), its
  /// relative URIs resolved against the field element's base.
  func treated(_ text: String, _ capture: TextCapture) -> (text: String, type: String?) {
    html.apply(text, type: capture.type, base: currentBase)
  }

  private func date(_ text: String) -> FeedDate {
    if let instant = FeedDateParser.parse(text) { return .instant(instant) }
    return .raw(text)
  }

  func addAuthor(_ author: FeedPerson) {
    if item != nil { item!.item.authors.append(author) } else { channel.authors.append(author) }
  }

  func addContributor(_ person: FeedPerson) {
    if item != nil {
      item!.extras.contributors.append(person)
    } else {
      channel.contributors.append(person)
    }
  }

  /// A core category (RSS category, with its `domain` as scheme; Atom term, scheme, label;
  /// dc:subject): a plain term, and a tag when it has a scheme or label.
  func addCategory(_ term: String, scheme: String? = nil, label: String? = nil) {
    if item != nil {
      item!.addCategory(
        term, scheme: scheme, label: label, isCore: true, index: &itemScope.tagIndex)
    } else {
      channel.addCategory(
        term, scheme: scheme, label: label, isCore: true, index: &channelScope.tagIndex)
    }
  }

  var isAtom: Bool {
    channel.version == .atom10 || channel.version == .atom03 || channel.version == .atom
  }

  /// An item's `source`: in Atom a container whose title and links name the origin; in RSS
  /// the origin's title as text, its feed in `url`.
  func startOrigin(_ attributes: XMLAttributes) {
    guard item != nil else {
      ignoredDepth = depth
      return
    }
    originURLIsSelf = false
    item!.extras.origin = FeedOrigin(
      url: attributes.value("url").flatMap(Self.nonEmpty).map(resolve))
    if isAtom {
      originDepth = depth
    } else {
      beginCapture(.source, attributes: attributes)
    }
  }

  /// RSS `enclosure` and `media:content`; kept without a type, a length only when an integer.
  func addEnclosure(url: String?, type: String?, length: String?) {
    guard item != nil, let url = url?.trimmingSpaces(), !url.isEmpty else { return }
    appendEnclosure(
      FeedEnclosure(
        url: resolve(url), type: type.flatMap(Self.nonEmpty),
        length: length.flatMap { Int64($0.trimmingSpaces()) }))
  }

  /// Podcasts name one file twice, as `enclosure` and as `media:content`: keep the first, and
  /// let the second fill in a type or length the first lacked.
  private func appendEnclosure(_ enclosure: FeedEnclosure) {
    if let index = enclosurePosition(enclosure.url) {
      if item!.item.enclosures[index].type == nil {
        item!.item.enclosures[index].type = enclosure.type
      }
      if item!.item.enclosures[index].length == nil {
        item!.item.enclosures[index].length = enclosure.length
      }
      return
    }
    if itemScope.enclosureIndex != nil {
      itemScope.enclosureIndex![enclosure.url] = item!.item.enclosures.count
    }
    item!.item.enclosures.append(enclosure)
  }

  /// Where the item's enclosure of `url` is: a scan while the item has few, then a table kept
  /// in the item's scope (see `DistinctList`; 40,000 enclosures took 4.6 s with a scan each).
  private func enclosurePosition(_ url: String) -> Int? {
    let enclosures = item!.item.enclosures
    if itemScope.enclosureIndex == nil {
      if enclosures.count < DistinctList.scanLimit {
        return enclosures.firstIndex { $0.url == url }
      }
      var index: [String: Int] = [:]
      for (position, enclosure) in enclosures.enumerated() where index[enclosure.url] == nil {
        index[enclosure.url] = position
      }
      itemScope.enclosureIndex = index
    }
    return itemScope.enclosureIndex![url]
  }

  /// An Atom link, or an `atom:link` in RSS. Like feedparser: `rel` defaults to `alternate`,
  /// `type` to `text/html` (`application/atom+xml` for `self`); the item's `link` is its last
  /// alternate HTML link.
  func addLink(_ attributes: XMLAttributes) {
    let rawHref = attributes.value("href")
    let rel = attributes.value("rel").flatMap(Self.nonEmpty) ?? "alternate"
    // feedparser keeps a link without href among the links, never as the item's link.
    let href = rawHref.map(resolve) ?? ""
    if originDepth != nil {
      guard !href.isEmpty else { return }
      if rel == "self" && !originURLIsSelf {
        item?.extras.origin?.url = href
        originURLIsSelf = true
      } else if rel == "alternate" && item?.extras.origin?.url == nil {
        item?.extras.origin?.url = href
      }
      return
    }
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
      guard !href.isEmpty else { return }
      if rel == "alternate" && isHTML { item!.item.link = href }
      if rel == "replies" && item!.extras.commentsFeed == nil { item!.extras.commentsFeed = href }
      if rel == "enclosure" {
        appendEnclosure(
          FeedEnclosure(
            url: href, type: attributes.value("type").flatMap(Self.nonEmpty), length: length))
      }
    } else if !isInImage && !href.isEmpty {
      if rel == "hub" {
        DistinctList.append(href, to: &channel.hubs, index: &channelScope.hubIndex)
      } else if rel == "self" {
        channel.selfLink = href
      } else if rel == "alternate" && isHTML {
        channel.link = href
      }
    }
  }

  static func nonEmpty(_ text: String) -> String? {
    let trimmed = text.trimmingSpaces()
    return trimmed.isEmpty ? nil : trimmed
  }
}

extension String {
  /// Nil for a text of white space only (a field the sanitizer emptied is left out).
  fileprivate var nonBlank: String? {
    utf8.contains(where: { !$0.isXMLSpace }) ? self : nil
  }
}
