/// The elements of the Podcasting 2.0 namespace that a field names.
enum PodcastElement: UInt8 {
  case guid, locked, funding, person, location, trailer, license, medium, txt, podroll
  case remoteItem, updateFrequency, images, socialInteract, transcript, chapters, soundbite
  case season, episode, alternateEnclosure, source
}

/// The Podcasting 2.0 namespace (`podcast:`) into the record's `podcast` object
/// (`PodcastFields`). Most of its elements carry their values in attributes, stored when they
/// start; their text (a name, a title) completes the entry they added.
enum PodcastReader {
  static let rows: [(String, FieldRoute)] = [
    ("guid", .podcast(.guid)), ("locked", .podcast(.locked)), ("funding", .podcast(.funding)),
    ("person", .podcast(.person)), ("location", .podcast(.location)),
    ("trailer", .podcast(.trailer)), ("license", .podcast(.license)),
    ("medium", .podcast(.medium)), ("txt", .podcast(.txt)), ("podroll", .podcast(.podroll)),
    ("remoteItem", .podcast(.remoteItem)), ("updateFrequency", .podcast(.updateFrequency)),
    ("images", .podcast(.images)), ("socialInteract", .podcast(.socialInteract)),
    ("transcript", .podcast(.transcript)), ("chapters", .podcast(.chapters)),
    ("soundbite", .podcast(.soundbite)), ("season", .podcast(.season)),
    ("episode", .podcast(.episode)), ("alternateEnclosure", .podcast(.alternateEnclosure)),
    ("source", .podcast(.source)),
  ]

  static func start(
    _ element: PodcastElement, _ attributes: XMLAttributes, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    let base = scope.base
    let storage = record.storage
    let podcast = record.podcast()
    switch element {
    case .guid, .medium:
      return .text(type: nil)
    case .locked:
      storage.clear(podcast, \.lockedOwner)
      attributes.store("owner", in: storage, podcast, \.lockedOwner)
      return .text(type: nil)
    case .funding:
      let funding = storage.append(podcast, \.funding)
      attributes.storeURL("url", in: storage, funding, \.url, base: base)
      return .text(type: nil)
    case .person:
      let person = storage.append(podcast, \.persons)
      attributes.store("role", in: storage, person, \.role)
      attributes.store("group", in: storage, person, \.group)
      attributes.storeURL("href", in: storage, person, \.href, base: base)
      attributes.storeURL("img", in: storage, person, \.img, base: base)
      return .text(type: nil)
    case .location:
      if !storage.has(podcast, \.location) {
        let location = storage.object(podcast, \.location)
        attributes.store("geo", in: storage, location, \.geo)
        attributes.store("osm", in: storage, location, \.osm)
      }
      return .text(type: nil)
    case .trailer:
      let trailer = storage.append(podcast, \.trailers)
      attributes.storeURL("url", in: storage, trailer, \.url, base: base)
      if let published = attributes.trimmedValue("pubdate") {
        storage.set(trailer, \.published, FeedDate.read(published))
      }
      attributes.storeInteger("length", in: storage, trailer, \.length)
      attributes.store("type", in: storage, trailer, \.type)
      attributes.storeInteger("season", in: storage, trailer, \.season)
      return .text(type: nil)
    case .license:
      if !storage.has(podcast, \.license) {
        let license = storage.object(podcast, \.license)
        attributes.storeURL("url", in: storage, license, \.url, base: base)
      }
      return .text(type: nil)
    case .txt:
      scope.pendingAttributes = (attributes.trimmedValue("purpose"), nil)
      return .text(type: nil)
    case .podroll:
      scope.podcastPodrollDepth = scope.depth
      return .children
    case .remoteItem:
      let remote = storage.append(podcast, \.podroll)
      attributes.store("feedGuid", in: storage, remote, \.feedGUID)
      attributes.storeURL("feedUrl", in: storage, remote, \.feedURL, base: base)
      return .ignore
    case .updateFrequency:
      if !storage.has(podcast, \.updateFrequency) {
        let frequency = storage.object(podcast, \.updateFrequency)
        attributes.store("rrule", in: storage, frequency, \.rrule)
        if let complete = attributes.value("complete").flatMap(MediaReader.boolean) {
          storage.set(frequency, \.complete, flag: complete)
        }
        if let start = attributes.trimmedValue("dtstart") {
          storage.set(frequency, \.dtstart, FeedDate.read(start))
        }
      }
      return .text(type: nil)
    case .images:
      // srcset: "URL 1500w, URL 600w".
      if let srcset = attributes.trimmedValue("srcset") {
        var srcset = srcset
        srcset.withUTF8 { srcset in
          ListText.withParts(of: srcset, separatedBy: UInt8(ascii: ",")) { candidates in
            for candidate in candidates {
              var end = 0
              while end < candidate.count && !candidate[end].isXMLSpace { end += 1 }
              storage.setURL(
                UnsafeBufferPointer(rebasing: candidate[..<end]),
                at: storage.appendEntry(toListAt: podcast.slot(\.images)), base: base)
            }
          }
        }
      }
      return .ignore
    case .socialInteract:
      let social = storage.append(podcast, \.socialInteract)
      attributes.storeURL("uri", in: storage, social, \.uri, base: base)
      attributes.store("protocol", in: storage, social, \.protocol)
      attributes.store("accountId", in: storage, social, \.accountID)
      attributes.storeURL("accountUrl", in: storage, social, \.accountURL, base: base)
      attributes.storeInteger("priority", in: storage, social, \.priority)
      return .ignore
    case .transcript:
      let transcript = storage.append(podcast, \.transcripts)
      attributes.storeURL("url", in: storage, transcript, \.url, base: base)
      attributes.store("type", in: storage, transcript, \.type)
      attributes.store("language", in: storage, transcript, \.language)
      attributes.store("rel", in: storage, transcript, \.rel)
      return .ignore
    case .chapters:
      if !storage.has(podcast, \.chapters) {
        let chapters = storage.object(podcast, \.chapters)
        attributes.storeURL("url", in: storage, chapters, \.url, base: base)
        attributes.store("type", in: storage, chapters, \.type)
      }
      return .ignore
    case .soundbite:
      let soundbite = storage.append(podcast, \.soundbites)
      attributes.storeDecimal("startTime", in: storage, soundbite, \.start)
      attributes.storeDecimal("duration", in: storage, soundbite, \.duration)
      return .text(type: nil)
    case .season:
      if !storage.has(podcast, \.season) {
        attributes.store("name", in: storage, storage.object(podcast, \.season), \.name)
      }
      return .text(type: nil)
    case .episode:
      if !storage.has(podcast, \.episode) {
        attributes.store("display", in: storage, storage.object(podcast, \.episode), \.display)
      }
      return .text(type: nil)
    case .alternateEnclosure:
      let enclosure = storage.append(podcast, \.alternateEnclosures)
      attributes.store("type", in: storage, enclosure, \.type)
      attributes.storeInteger("length", in: storage, enclosure, \.length)
      attributes.storeDecimal("bitrate", in: storage, enclosure, \.bitrate)
      attributes.storeInteger("height", in: storage, enclosure, \.height)
      attributes.store("lang", in: storage, enclosure, \.lang)
      attributes.store("title", in: storage, enclosure, \.title)
      attributes.store("rel", in: storage, enclosure, \.rel)
      if let isDefault = attributes.trimmedValue("default").flatMap(MediaReader.boolean) {
        storage.set(enclosure, \.isDefault, flag: isDefault)
      }
      scope.podcastAlternateEnclosureDepth = scope.depth
      return .children
    case .source:
      if let enclosure = storage.last(podcast, \.alternateEnclosures),
        attributes.hasValue("uri")
      {
        attributes.storeURL(
          "uri", in: storage, at: storage.appendEntry(toListAt: enclosure.slot(\.sources)),
          base: base)
      }
      return .ignore
    }
  }

  static func text(
    _ element: PodcastElement, _ text: UnsafeBufferPointer<UInt8>, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) {
    let trimmed = text.trimmedOfXMLSpace
    let value = trimmed.nilIfEmpty
    let storage = record.storage
    let podcast = record.podcast()
    switch element {
    case .guid: if let value { storage.setFirst(podcast, \.guid, value) }
    case .medium: if let value { storage.setFirst(podcast, \.medium, value) }
    case .locked:
      if let flag = value.flatMap(ITunesReader.yesNo) {
        storage.set(podcast, \.locked, flag: flag)
      } else {
        storage.clear(podcast, \.locked)
      }
    case .funding:
      if let value, let funding = storage.last(podcast, \.funding) {
        storage.setText(funding, \.text, value)
      }
    case .person:
      if let value, let person = storage.last(podcast, \.persons) {
        storage.setText(person, \.name, value)
      }
    case .location:
      if let value, let location = storage.existing(podcast, \.location) {
        storage.setFirst(location, \.name, value)
      }
    case .trailer:
      if let value, let trailer = storage.last(podcast, \.trailers) {
        storage.setText(trailer, \.title, value)
      }
    case .license:
      if let value, let license = storage.existing(podcast, \.license) {
        storage.setFirst(license, \.name, value)
      }
    case .txt:
      let purpose = scope.pendingAttributes.0
      scope.pendingAttributes = (nil, nil)
      guard let value else { return }
      let entry = storage.append(podcast, \.txt)
      storage.setText(entry, \.value, value)
      if let purpose { storage.setText(entry, \.purpose, purpose) }
    case .updateFrequency:
      if let value, let frequency = storage.existing(podcast, \.updateFrequency) {
        storage.setFirst(frequency, \.value, value)
      }
    case .soundbite:
      if let value, let soundbite = storage.last(podcast, \.soundbites) {
        storage.setText(soundbite, \.title, value)
      }
    case .season, .episode:
      if let value, let number = NamespacedNumber.decimal(value) ?? MediaReader.number(value) {
        setNumber(number, of: element, in: record)
      }
    default: break
    }
  }

  /// A `podcast:season` or `podcast:episode` number: the first element's counts.
  static func setNumber(_ number: Double, of element: PodcastElement, in record: NamespacedRecord) {
    let storage = record.storage
    let podcast = record.podcast()
    if element == .season {
      if let season = storage.existing(podcast, \.season), !storage.has(season, \.number) {
        storage.set(season, \.number, number: number)
      }
    } else if let episode = storage.existing(podcast, \.episode), !storage.has(episode, \.number) {
      storage.set(episode, \.number, number: number)
    }
  }
}

extension FeedDate {
  /// A date as the feed gave it: an instant when it can be read, else its text.
  static func read(_ text: String) -> FeedDate {
    if let instant = FeedDateParser.parse(text) { return .instant(instant) }
    return .raw(text)
  }
}
