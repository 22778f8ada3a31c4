/// What an element means to a feed, whatever format it came from. RSS 0.9x/2.0, RSS 1.0 (RDF)
/// and Atom 0.3/1.0 differ only in the rows of `FeedElementTable`, not in separate code paths.
enum FeedElement: UInt8 {
  case unknown
  // Roots and containers.
  case rss, rdf, atomFeed, channel, item, author, contributor, image, textInput, source
  // Text fields.
  case title, link, description, subtitle, summary, content, contentEncoded, id, guid
  case published, updated, dcDate, created, generator, language, rights, icon, logo
  case category, comments, name, email, uri, url
  /// "email (Name)" text: RSS `managingEditor`, `dc:creator`.
  case personText
  /// `itunes:author`: an author only when the feed names no other.
  case itunesAuthor
  /// RSS `webMaster` and `dc:publisher`: the feed's publisher ("email (Name)" text).
  case publisherText
  /// `dc:contributor` ("email (Name)" text).
  case contributorText
  // Comments: wfw:commentRss, slash:comments and thr:total, thr:in-reply-to.
  case commentsFeed, commentsCount, inReplyTo
  // Elements whose value is in their attributes.
  case enclosure
}

extension FeedElement {
  /// The elements whose text is an item's summary or content.
  var isItemBody: Bool {
    switch self {
    case .description, .summary, .content, .contentEncoded: return true
    default: return false
    }
  }
}

/// The table: (vocabulary, local name) → meaning. Adding a field is adding a row.
enum FeedElementTable {
  private struct Key: Hashable {
    let namespace: FeedNamespace
    let name: String
  }

  private static let coreRows: [(FeedNamespace, String, FeedElement)] = [
    // Roots and containers.
    (.core, "rss", .rss), (.rdf, "RDF", .rdf), (.core, "feed", .atomFeed),
    (.core, "channel", .channel), (.core, "item", .item), (.core, "entry", .item),
    (.core, "author", .author), (.core, "contributor", .contributor),
    (.core, "image", .image), (.core, "textInput", .textInput), (.core, "textinput", .textInput),
    (.core, "source", .source),
    // Titles, links, ids.
    (.core, "title", .title), (.dublinCore, "title", .title),
    (.core, "link", .link), (.core, "id", .id), (.core, "guid", .guid),
    // Texts: RSS description, Atom subtitle (0.3 tagline), summary, content.
    (.core, "description", .description), (.dublinCore, "description", .description),
    (.core, "subtitle", .subtitle), (.core, "tagline", .subtitle),
    (.core, "summary", .summary), (.core, "content", .content),
    (.content, "encoded", .contentEncoded),
    // Dates: RSS, Atom 1.0, Atom 0.3 (issued, modified, created), Dublin Core.
    (.core, "pubDate", .published), (.core, "published", .published),
    (.core, "issued", .published), (.dublinCoreTerms, "issued", .published),
    (.core, "updated", .updated), (.core, "modified", .updated),
    (.core, "lastBuildDate", .updated), (.dublinCoreTerms, "modified", .updated),
    (.dublinCore, "date", .dcDate),
    (.core, "created", .created), (.dublinCoreTerms, "created", .created),
    // The rest of the channel.
    (.core, "generator", .generator), (.core, "language", .language),
    (.dublinCore, "language", .language),
    (.core, "rights", .rights), (.core, "copyright", .rights), (.dublinCore, "rights", .rights),
    (.core, "icon", .icon), (.core, "logo", .logo), (.core, "url", .url),
    (.core, "homepage", .url),
    // People: Atom author children (Atom 0.3 says url), RSS text forms.
    (.core, "name", .name), (.core, "email", .email), (.core, "uri", .uri),
    (.core, "managingEditor", .personText), (.dublinCore, "creator", .personText),
    (.itunes, "author", .itunesAuthor),
    (.core, "webMaster", .publisherText), (.dublinCore, "publisher", .publisherText),
    (.dublinCore, "contributor", .contributorText),
    (.wellFormedWeb, "commentRss", .commentsFeed), (.wellFormedWeb, "commentRSS", .commentsFeed),
    (.slash, "comments", .commentsCount), (.threading, "total", .commentsCount),
    (.threading, "in-reply-to", .inReplyTo),
    // Categories, comments, attachments.
    (.core, "category", .category), (.dublinCore, "subject", .category),
    (.core, "comments", .comments),
    (.core, "enclosure", .enclosure),
  ]

  /// Each namespace's rows live beside the code that reads its elements.
  private static let namespaceRows: [(FeedNamespace, [(String, FieldRoute)])] = [
    (.itunes, ITunesReader.rows), (.podcast, PodcastReader.rows), (.media, MediaReader.rows),
    (.geoRSS, GeoReader.geoRSSRows), (.gml, GeoReader.gmlRows), (.w3cGeo, GeoReader.w3cRows),
    (.podloveChapters, ChapterReader.rows), (.core, ScheduleReader.coreRows),
    (.syndication, ScheduleReader.syndicationRows), (.youtube, YouTubeReader.rows),
  ]

  private static let byKey: [Key: FieldRoute] = {
    var table: [Key: FieldRoute] = [:]
    for (namespace, name, element) in coreRows {
      table[Key(namespace: namespace, name: name)] = .core(element)
    }
    for (namespace, rows) in namespaceRows {
      for (name, route) in rows { table[Key(namespace: namespace, name: name)] = route }
    }
    return table
  }()

  /// An element no row names is an extension in a namespace of its own (`dc:type`,
  /// `media:hash`, a made-up namespace), and nothing in the core vocabularies.
  static func route(namespace: FeedNamespace, localName: String) -> FieldRoute {
    if let route = byKey[Key(namespace: namespace, name: localName)] { return route }
    switch namespace {
    case .core, .rdf, .xhtml: return .core(.unknown)
    default: return .unmapped
    }
  }
}
