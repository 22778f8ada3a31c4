/// Where a finished field's text goes: the item being read, else the channel; an author's parts
/// go to the author being read. Precedence follows feedparser where docs/format.md is silent.
/// Text arrives as bytes (the capture buffer, or libxml2's and the hand-over's memory) and is
/// copied into the record's storage once, trimmed or resolved on the way.
extension FeedDocumentBuilder {
  func assign(_ capture: TextCapture, text: UnsafeBufferPointer<UInt8>) {
    let trimmed = text.trimmedOfXMLSpace
    guard !trimmed.isEmpty else { return }
    let storage = openStorage
    let isItem = item != nil
    let item = Block<ItemFields>.root
    let channel = Block<ChannelFields>.root
    switch capture.element {
    case .title:
      guard !isInImage else { return }
      html.withApplied(trimmed, type: capture.type, base: currentBase) { treated, type in
        let title = treated.trimmedOfXMLSpace
        guard !title.isEmpty else { return }
        if originDepth != nil {
          if isItem, let origin = storage.existing(item, \.origin) {
            storage.setText(origin, \.title, title)
          }
        } else if isItem {
          storage.setText(item, \.title, title)
          storage.setType(item, \.titleType, type)
        } else {
          storage.setText(channel, \.title, title)
          storage.setType(channel, \.titleType, type)
        }
      }
    case .link:
      guard !isInImage else { return }
      if isItem {
        storage.setURL(item, \.link, trimmed, base: currentBase)
        let link = storage.append(item, \.links)
        storage.copy(item, \.link, to: link, \.href)
        storage.setText(link, \.rel, StaticString("alternate").bytes)
        storage.setText(link, \.type, StaticString("text/html").bytes)
      } else {
        storage.setURL(channel, \.link, trimmed, base: currentBase)
      }
    case .description, .summary, .content, .contentEncoded:
      // An RSS image's own description is not the channel's.
      guard !isInImage else { return }
      if isItem {
        assignItemBody(capture, text: text)
      } else if capture.element == .description {
        setTreated(text, capture, channel.slot(\.description))
      }
    case .subtitle:
      if !isItem { setTreated(text, capture, channel.slot(\.description)) }
    case .id:
      if isItem {
        storage.setText(item, \.id, trimmed)
      } else {
        storage.setText(channel, \.id, trimmed)
      }
    case .guid:
      guard isItem else { return }
      storage.setText(item, \.id, trimmed)
      storage.copy(item, \.id, to: openDraft, \.guid)
      self.item!.guidIsPermalink = capture.isPermalink
    case .published:
      if isItem {
        storage.setDate(item, \.published, trimmed)
      } else {
        storage.setDate(channel, \.published, trimmed)
      }
    case .updated:
      if isItem {
        storage.setDate(item, \.updated, trimmed)
      } else {
        storage.setDate(channel, \.updated, trimmed)
      }
    case .dcDate:
      // The contract: an item's dc:date is its publication, a channel's its update.
      if isItem {
        storage.setDate(item, \.published, trimmed)
      } else {
        storage.setDate(channel, \.updated, trimmed)
      }
    case .created:
      if !isItem && !storage.has(channel, \.published) {
        storage.setDate(channel, \.published, trimmed)
      }
    case .generator:
      if !isItem { storage.setText(channel, \.generator, trimmed) }
    case .language:
      // An item's own language (`dc:language`), as a JSON Feed item's.
      if isItem {
        storage.setText(item, \.language, trimmed)
      } else {
        storage.setText(channel, \.language, trimmed)
      }
    case .rights:
      setTreated(text, capture, isItem ? item.slot(\.rights) : channel.slot(\.rights))
    case .source:
      if isItem, let origin = storage.existing(item, \.origin) {
        storage.setText(origin, \.title, trimmed)
      }
    case .icon:
      if !isItem { storage.setURL(channel, \.icon, trimmed, base: currentBase) }
    case .logo:
      if !isItem { storage.setURL(channel, \.image, trimmed, base: currentBase) }
    case .url:
      if let person {
        person.storage.setURL(person.person, \.uri, trimmed, base: currentBase)
      } else if isInImage {
        storage.setURL(channel, \.image, trimmed, base: currentBase)
      }
    case .name:
      if let person { person.storage.setText(person.person, \.name, trimmed) }
    case .email:
      if let person { person.storage.setText(person.person, \.email, trimmed) }
    case .uri:
      if let person { person.storage.setURL(person.person, \.uri, trimmed, base: currentBase) }
    case .personText:
      addPerson(fromText: trimmed, contributor: false)
    case .itunesAuthor:
      guard storePerson(fromText: trimmed, in: storage, at: openDraft.slot(\.iTunesAuthor))
      else { return }
      storage.setText(namespacedRecord.itunes(), \.author, trimmed)
    case .publisherText:
      if !isItem, !storage.has(channel, \.publisher) {
        storePerson(fromText: trimmed, in: storage, at: channel.slot(\.publisher))
      }
    case .contributorText:
      addPerson(fromText: trimmed, contributor: true)
    case .category:
      let domain = categoryDomain.take()
      addCategory(trimmed, scheme: domain, label: nil)
    case .comments:
      if isItem { storage.setURL(item, \.comments, trimmed, base: currentBase) }
    case .commentsFeed:
      if isItem, !storage.has(item, \.commentsFeed) {
        storage.setURL(item, \.commentsFeed, trimmed, base: currentBase)
      }
    case .commentsCount:
      if isItem, let count = Int(String(decoding: trimmed, as: UTF8.self)) {
        storage.set(item, \.commentsCount, integer: Int64(count))
      }
    default:
      break
    }
  }

  /// An item's summary or content, untrimmed. feedparser: a second summary-like element (RSS
  /// description after an Atom summary, or the reverse) becomes the content when there is none
  /// yet.
  func assignItemBody(_ capture: TextCapture, text: UnsafeBufferPointer<UInt8>) {
    guard text.hasNonSpace, item != nil else { return }
    html.withApplied(text, type: capture.type, base: currentBase) { text, type in
      guard text.hasNonSpace else { return }
      let storage = openStorage
      let item = Block<ItemFields>.root
      let isSummary = capture.element == .description || capture.element == .summary
      if isSummary && !storage.has(item, \.summary) {
        storage.setText(item, \.summary, text)
        storage.setType(item, \.summaryType, type)
      } else if !storage.has(item, \.content) {
        storage.setText(item, \.content, text)
        storage.setType(item, \.contentType, type)
      }
    }
  }

  /// A field's text after `--html` (sanitized, rendered as text, or as it is), its relative
  /// URIs resolved against the field element's base, at `slot`; a text the treatment left
  /// blank empties the field.
  private func setTreated(_ text: UnsafeBufferPointer<UInt8>, _ capture: TextCapture, _ slot: Int) {
    html.withApplied(text, type: capture.type, base: currentBase) { text, _ in
      if text.hasNonSpace {
        openStorage.setText(text, at: slot)
      } else {
        openStorage.clear(at: slot)
      }
    }
  }

  // MARK: People

  /// An RSS person text (`email (Name)`, `Name <email>`, a name) as an author or contributor
  /// of the current record.
  func addPerson(fromText text: UnsafeBufferPointer<UInt8>, contributor: Bool) {
    let storage = openStorage
    let list = personListSlot(contributor: contributor, isItem: item != nil)
    // The scratch row, not `person`'s: an Atom author being read may hold a `dc:creator`.
    let probe = scratchSlot
    guard storePerson(fromText: text, in: storage, at: probe) else { return }
    storage.copyValue(from: storage, at: probe, to: storage.appendEntry(toListAt: list))
  }

  /// Stores the person `text` names at `slot`; false when it names none. A name alone (no
  /// `@`: most feeds) is stored from the bytes; the rest goes through `PersonTextParser`.
  @discardableResult
  func storePerson(
    fromText text: UnsafeBufferPointer<UInt8>, in storage: RecordStorage, at slot: Int
  ) -> Bool {
    storage.clear(at: slot)
    guard !text.isEmpty else { return false }
    if !text.contains(UInt8(ascii: "@")) {
      storage.setText(
        Block<PersonFields>(storage.object(at: slot, count: PersonFields.fieldCount)), \.name,
        text)
      return true
    }
    guard let parsed = PersonTextParser.person(from: String(decoding: text, as: UTF8.self))
    else { return false }
    FeedPerson.store(parsed, in: storage, at: slot)
    return true
  }

  /// The slot of the current record's authors or contributors.
  func personListSlot(contributor: Bool, isItem: Bool) -> Int {
    if isItem {
      return contributor
        ? Block<ItemFields>.root.slot(\.contributors) : Block<ItemFields>.root.slot(\.authors)
    }
    return contributor
      ? Block<ChannelFields>.root.slot(\.contributors) : Block<ChannelFields>.root.slot(\.authors)
  }

  // MARK: Categories, origins, enclosures, links

  /// A core category (RSS category, with its `domain` as scheme; Atom term, scheme, label;
  /// dc:subject): a plain term, and a tag when it has a scheme or label.
  func addCategory(_ term: UnsafeBufferPointer<UInt8>, scheme: String?, label: String?) {
    let record = namespacedRecord
    var scheme = scheme
    var label = label
    func add(_ scheme: UnsafeBufferPointer<UInt8>?, _ label: UnsafeBufferPointer<UInt8>?) {
      if item != nil {
        record.addCategory(
          term, scheme: scheme, label: label, isCore: true, index: &itemScope.tagIndex)
      } else {
        record.addCategory(
          term, scheme: scheme, label: label, isCore: true, index: &channelScope.tagIndex)
      }
    }
    switch (scheme != nil, label != nil) {
    case (false, false): add(nil, nil)
    case (true, false): scheme!.withUTF8 { add($0, nil) }
    case (false, true): label!.withUTF8 { add(nil, $0) }
    case (true, true): scheme!.withUTF8 { scheme in label!.withUTF8 { add(scheme, $0) } }
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
    let storage = openStorage
    storage.clear(Block<ItemFields>.root, \.origin)
    let origin = storage.object(Block<ItemFields>.root, \.origin)
    attributes.storeURL("url", in: storage, origin, \.url, base: currentBase)
    if isAtom {
      originDepth = depth
    } else {
      beginCapture(.source, attributes: attributes)
    }
  }

  /// RSS `enclosure` and `media:content`; kept without a type, a length only when an integer.
  func addEnclosure(_ attributes: XMLAttributes, lengthAttribute: StaticString) {
    guard item != nil else { return }
    let storage = openStorage
    storage.clear(at: scratchSlot)
    guard attributes.storeURL("url", in: storage, at: scratchSlot, base: currentBase) else {
      return
    }
    appendEnclosure(
      urlAt: scratchSlot, type: attributes, typeAttribute: "type",
      length: attributes.integer(lengthAttribute).map(Int64.init))
  }

  /// Podcasts name one file twice, as `enclosure` and as `media:content`: keep the first, and
  /// let the second fill in a type or length the first lacked. The URL is in the slot `url` of
  /// the item's storage.
  func appendEnclosure(
    urlAt url: Int, type attributes: XMLAttributes, typeAttribute: StaticString, length: Int64?
  ) {
    guard item != nil else { return }
    let storage = openStorage
    let enclosure: Block<EnclosureFields>
    if let existing = enclosurePosition(urlAt: url) {
      enclosure = existing
    } else {
      enclosure = storage.append(Block<ItemFields>.root, \.enclosures)
      storage.copyValue(from: storage, at: url, to: enclosure.slot(\.url))
      if let hash = storage.text(at: url).map({ DistinctIndex.hash($0, nil, nil) }) {
        itemScope.enclosureIndex?.insert(enclosure.index, hash: hash)
      }
    }
    if !storage.has(enclosure, \.type) {
      attributes.store(typeAttribute, in: storage, enclosure, \.type)
    }
    if !storage.has(enclosure, \.length), let length {
      storage.set(enclosure, \.length, integer: length)
    }
  }

  /// The item's enclosure of the URL in slot `url`: a scan while the item has few, then a
  /// table kept in the item's scope (see `DistinctList`; 40,000 enclosures took 4.6 s with a
  /// scan each).
  private func enclosurePosition(urlAt url: Int) -> Block<EnclosureFields>? {
    let storage = openStorage
    let item = Block<ItemFields>.root
    guard self.item != nil, let text = storage.text(at: url) else { return nil }
    let list = item.slot(\.enclosures)
    if itemScope.enclosureIndex == nil {
      if storage.listCount(at: list) < DistinctList.scanLimit {
        var found: Block<EnclosureFields>?
        storage.forEach(item, \.enclosures) { enclosure in
          if storage.sameText(storage[enclosure.slot(\.url)], storage[url]) { found = enclosure }
          return found == nil
        }
        return found
      }
      var index = DistinctIndex()
      storage.forEach(item, \.enclosures) { enclosure in
        if let url = storage.text(at: enclosure.slot(\.url)) {
          index.insert(enclosure.index, hash: DistinctIndex.hash(url, nil, nil))
        }
        return true
      }
      itemScope.enclosureIndex = index
    }
    let candidates = itemScope.enclosureIndex!.values(DistinctIndex.hash(text, nil, nil))
    for candidate in candidates {
      let enclosure = Block<EnclosureFields>(candidate)
      if storage.sameText(storage[enclosure.slot(\.url)], storage[url]) { return enclosure }
    }
    return nil
  }

  /// An Atom link, or an `atom:link` in RSS. Like feedparser: `rel` defaults to `alternate`,
  /// `type` to `text/html` (`application/atom+xml` for `self`); the item's `link` is its last
  /// alternate HTML link.
  func addLink(_ attributes: XMLAttributes) {
    let rel = attributes.value("rel").flatMap(NamespaceScope.nonEmpty) ?? "alternate"
    let storage = openStorage
    let item = Block<ItemFields>.root
    let isItem = self.item != nil
    // feedparser keeps a link without href among the links, never as the item's link.
    let href = scratchSlot
    storage.clear(at: href)
    attributes.storeResolved("href", in: storage, at: href, base: currentBase)
    let hasHref = (storage.text(at: href)?.count ?? 0) > 0
    if originDepth != nil {
      guard hasHref, isItem, let origin = storage.existing(item, \.origin) else { return }
      if rel == "self" && !originURLIsSelf {
        storage.copyValue(from: storage, at: href, to: origin.slot(\.url))
        originURLIsSelf = true
      } else if rel == "alternate" && !storage.has(origin, \.url) {
        storage.copyValue(from: storage, at: href, to: origin.slot(\.url))
      }
      return
    }
    let explicitType = attributes.value("type").flatMap(NamespaceScope.nonEmpty)
    let type = explicitType ?? (rel == "self" ? "application/atom+xml" : "text/html")
    let isHTML = type == "text/html" || type == "application/xhtml+xml"
    if isItem {
      let length = attributes.value("length").flatMap { Int64($0.trimmingSpaces()) }
      let link = storage.append(item, \.links)
      storage.copyValue(from: storage, at: href, to: link.slot(\.href))
      storage.setText(link, \.rel, rel)
      storage.setText(link, \.type, type)
      attributes.store("title", in: storage, link, \.title)
      if let length { storage.set(link, \.length, integer: length) }
      guard hasHref else { return }
      if rel == "alternate" && isHTML {
        storage.copyValue(from: storage, at: href, to: item.slot(\.link))
      }
      if rel == "replies" && !storage.has(item, \.commentsFeed) {
        storage.copyValue(from: storage, at: href, to: item.slot(\.commentsFeed))
      }
      if rel == "enclosure" {
        appendEnclosure(urlAt: href, type: attributes, typeAttribute: "type", length: length)
      }
    } else if !isInImage && hasHref {
      let root = Block<ChannelFields>.root
      if rel == "hub", let url = storage.text(at: href) {
        // The URL is this storage's bytes, copied before anything can move them.
        DistinctList.appendText(
          url, toListAt: root.slot(\.hubs), in: storage, index: &channelScope.hubIndex)
      } else if rel == "self" {
        storage.copyValue(from: storage, at: href, to: root.slot(\.selfLink))
      } else if rel == "alternate" && isHTML {
        storage.copyValue(from: storage, at: href, to: root.slot(\.link))
      }
    }
  }

  /// The current record's `DraftFields.scratch`.
  var scratchSlot: Int { openDraft.slot(\.scratch) }
}
