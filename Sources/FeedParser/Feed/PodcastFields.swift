/// The elements of the Podcasting 2.0 namespace that a field names.
enum PodcastElement: UInt8 {
  case guid, locked, funding, person, location, trailer, license, medium, txt, podroll
  case remoteItem, updateFrequency, images, socialInteract, transcript, chapters, soundbite
  case season, episode, alternateEnclosure, source
}

/// The Podcasting 2.0 namespace (`podcast:`) into `PodcastInfo`. Most of its elements carry
/// their values in attributes, read when they start; their text (a name, a title) completes
/// the entry they added.
enum PodcastFields {
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

  static func start<Record: NamespacedRecord>(
    _ element: PodcastElement, _ attributes: XMLAttributes, _ record: inout Record,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    let base = scope.base
    func text(_ name: StaticString) -> String? { attributes.trimmedValue(name) }
    func url(_ name: StaticString) -> String? {
      text(name).map { NamespaceScope.resolve($0, against: base) }
    }
    // The entries of lists are made by functions, each in one initialiser call, and appended
    // as they return. A local built inside the closure below was copied into its list (and
    // `consume` cannot move a closure's local); a `var` filled in field by field was copied
    // twice more. Each copy is a retain and a release of every string in it.
    func newPerson() -> PodcastInfo.Person {
      PodcastInfo.Person(
        role: text("role"), group: text("group"), href: url("href"), img: url("img"))
    }
    func newTranscript() -> PodcastInfo.Transcript {
      PodcastInfo.Transcript(
        url: url("url"), type: text("type"), language: text("language"), rel: text("rel"))
    }
    func newAlternateEnclosure() -> PodcastInfo.AlternateEnclosure {
      PodcastInfo.AlternateEnclosure(
        type: text("type"), length: attributes.integer("length").map(Int64.init),
        bitrate: attributes.decimal("bitrate"),
        height: attributes.integer("height"), lang: text("lang"), title: text("title"),
        rel: text("rel"), isDefault: text("default").flatMap(MediaFields.boolean))
    }
    var start = FieldStart.text(type: nil)
    record.withPodcast { podcast in
      switch element {
      case .guid, .medium: break
      case .locked: podcast.lockedOwner = text("owner")
      case .funding: podcast.funding.append(.init(url: url("url")))
      case .person:
        if podcast.persons.isEmpty { podcast.persons.reserveCapacity(4) }
        podcast.persons.append(newPerson())
      case .location:
        var location = PodcastInfo.Location()
        location.geo = text("geo")
        location.osm = text("osm")
        if podcast.location == nil { podcast.location = location }
      case .trailer:
        var trailer = PodcastInfo.Trailer(url: url("url"))
        trailer.published = text("pubdate").map(FeedDate.read)
        trailer.length = attributes.integer("length").map(Int64.init)
        trailer.type = text("type")
        trailer.season = attributes.integer("season")
        podcast.trailers.append(trailer)
      case .license:
        if podcast.license == nil { podcast.license = .init(url: url("url")) }
      case .txt: podcast.txt.append(.init(value: "", purpose: text("purpose")))
      case .podroll: start = .children
      case .remoteItem:
        podcast.podroll.append(.init(feedGUID: text("feedGuid"), feedURL: url("feedUrl")))
        start = .ignore
      case .updateFrequency:
        var frequency = PodcastInfo.UpdateFrequency()
        frequency.rrule = text("rrule")
        frequency.complete = text("complete").flatMap(MediaFields.boolean)
        frequency.dtstart = text("dtstart").map(FeedDate.read)
        if podcast.updateFrequency == nil { podcast.updateFrequency = frequency }
      case .images:
        // srcset: "URL 1500w, URL 600w".
        for candidate in (text("srcset") ?? "").split(separator: ",") {
          if let reference = candidate.split(whereSeparator: \.isWhitespace).first {
            podcast.images.append(NamespaceScope.resolve(String(reference), against: base))
          }
        }
        start = .ignore
      case .socialInteract:
        var social = PodcastInfo.SocialInteract(uri: url("uri"))
        social.protocol = text("protocol")
        social.accountID = text("accountId")
        social.accountURL = url("accountUrl")
        social.priority = attributes.integer("priority")
        podcast.socialInteract.append(social)
        start = .ignore
      case .transcript:
        podcast.transcripts.append(newTranscript())
        start = .ignore
      case .chapters:
        if podcast.chapters == nil { podcast.chapters = .init(url: url("url"), type: text("type")) }
        start = .ignore
      case .soundbite:
        podcast.soundbites.append(
          .init(
            start: attributes.decimal("startTime"),
            duration: attributes.decimal("duration")))
      case .season:
        if podcast.season == nil { podcast.season = .init(name: text("name")) }
      case .episode:
        if podcast.episode == nil { podcast.episode = .init(display: text("display")) }
      case .alternateEnclosure:
        podcast.alternateEnclosures.append(newAlternateEnclosure())
        start = .children
      case .source:
        if let uri = url("uri"), !podcast.alternateEnclosures.isEmpty {
          podcast.alternateEnclosures[podcast.alternateEnclosures.count - 1].sources.append(uri)
        }
        start = .ignore
      }
    }
    if element == .alternateEnclosure { scope.podcastAlternateEnclosureDepth = scope.depth }
    if element == .podroll { scope.podcastPodrollDepth = scope.depth }
    return start
  }

  static func text<Record: NamespacedRecord>(
    _ element: PodcastElement, _ text: String, _ record: inout Record,
    _ scope: inout NamespaceScope
  ) {
    let trimmed = text.trimmingSpaces()
    let value = trimmed.isEmpty ? nil : trimmed
    record.withPodcast { podcast in
      switch element {
      case .guid: podcast.guid = podcast.guid ?? value
      case .medium: podcast.medium = podcast.medium ?? value
      case .locked: podcast.locked = value.flatMap(ITunesFields.yesNo)
      case .funding: podcast.funding[podcast.funding.count - 1].text = value
      case .person: podcast.persons[podcast.persons.count - 1].name = value
      case .location: if podcast.location?.name == nil { podcast.location?.name = value }
      case .trailer: podcast.trailers[podcast.trailers.count - 1].title = value
      case .license: if podcast.license?.name == nil { podcast.license?.name = value }
      case .txt:
        podcast.txt[podcast.txt.count - 1].value = trimmed
        if trimmed.isEmpty { podcast.txt.removeLast() }
      case .updateFrequency:
        if podcast.updateFrequency?.value == nil { podcast.updateFrequency?.value = value }
      case .soundbite: podcast.soundbites[podcast.soundbites.count - 1].title = value
      case .season:
        if podcast.season?.number == nil {
          podcast.season?.number = value.flatMap(MediaFields.number)
        }
      case .episode:
        if podcast.episode?.number == nil {
          podcast.episode?.number = value.flatMap(MediaFields.number)
        }
      default: break
      }
    }
  }
}

extension PodcastFields {
  /// A `podcast:season` or `podcast:episode` number read from the element's bytes: what
  /// `text` does with the same text.
  static func setNumber<Record: NamespacedRecord>(
    _ number: Double, of element: PodcastElement, in record: inout Record
  ) {
    record.withPodcast { podcast in
      if element == .season {
        if podcast.season?.number == nil { podcast.season?.number = number }
      } else if podcast.episode?.number == nil {
        podcast.episode?.number = number
      }
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
