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
  // Elements whose value is in their attributes.
  case enclosure, mediaContent, itunesImage
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

/// The vocabularies feedparser tells apart. Like feedparser, elements of RSS 0.90/1.0, Atom
/// 0.3/1.0, Userland's RSS namespaces and no namespace at all are one vocabulary (`core`): a feed
/// that mixes them (an `atom:link` in RSS 2.0) reads the same way.
enum FeedNamespace: UInt8 {
  case core, rdf, content, dublinCore, dublinCoreTerms, media, itunes, xhtml, other

  /// Namespace URIs compared in lower case, as feedparser does (feeds in the wild vary the case).
  private static let byURI: [String: FeedNamespace] = [
    "http://www.w3.org/2005/atom": .core,
    "http://purl.org/atom/ns#": .core,
    "http://purl.org/rss/1.0/": .core,
    "http://my.netscape.com/rdf/simple/0.9/": .core,
    "http://backend.userland.com/rss": .core,
    "http://backend.userland.com/rss2": .core,
    "http://blogs.law.harvard.edu/tech/rss": .core,
    "http://purl.org/rss/1.0/modules/rss091#": .core,
    "http://example.com/newformat#": .core,
    "http://example.com/necho": .core,
    "http://purl.org/echo/": .core,
    "uri/of/echo/namespace#": .core,
    "http://purl.org/pie/": .core,
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#": .rdf,
    "http://purl.org/rss/1.0/modules/content/": .content,
    "http://purl.org/dc/elements/1.1/": .dublinCore,
    "http://purl.org/dc/terms/": .dublinCoreTerms,
    "http://search.yahoo.com/mrss/": .media,
    "http://search.yahoo.com/mrss": .media,
    "http://www.itunes.com/dtds/podcast-1.0.dtd": .itunes,
    "http://www.w3.org/1999/xhtml": .xhtml,
  ]

  /// Prefixes used without a declaration (libxml2 then reports no URI): feedparser's loose
  /// parser reads them by their customary prefix.
  private static let byPrefix: [String: FeedNamespace] = [
    "atom": .core, "rdf": .rdf, "content": .content, "dc": .dublinCore,
    "dcterms": .dublinCoreTerms, "media": .media, "itunes": .itunes, "xhtml": .xhtml,
  ]

  /// Like feedparser, an unknown namespace counts by the element's prefix: unprefixed elements
  /// in a namespace it does not know (`http://backend.userland.com/rss2.1`) are core ones.
  static func classify(uri: String?, prefix: String?) -> FeedNamespace {
    if let uri, !uri.isEmpty {
      let lowered = uri.lowercased()
      if let known = byURI[lowered] { return known }
      if lowered.contains("backend.userland.com/rss") { return .core }
    }
    guard let prefix else { return .core }
    return byPrefix[prefix.lowercased()] ?? .other
  }
}

/// The table: (vocabulary, local name) → meaning. Adding a field is adding a row.
enum FeedElementTable {
  private struct Key: Hashable {
    let namespace: FeedNamespace
    let name: String
  }

  private static let rows: [(FeedNamespace, String, FeedElement)] = [
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
    // Categories, comments, attachments.
    (.core, "category", .category), (.dublinCore, "subject", .category),
    (.core, "comments", .comments),
    (.core, "enclosure", .enclosure), (.media, "content", .mediaContent),
    (.itunes, "image", .itunesImage),
  ]

  private static let byKey: [Key: FeedElement] = {
    var table: [Key: FeedElement] = [:]
    for (namespace, name, element) in rows {
      table[Key(namespace: namespace, name: name)] = element
    }
    return table
  }()

  static func element(namespace: FeedNamespace, localName: String) -> FeedElement {
    byKey[Key(namespace: namespace, name: localName)] ?? .unknown
  }
}
