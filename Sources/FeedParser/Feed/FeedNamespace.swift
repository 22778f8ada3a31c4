/// The vocabularies feedparser tells apart. Like feedparser, elements of RSS 0.90/1.0, Atom
/// 0.3/1.0, Userland's RSS namespaces and no namespace at all are one vocabulary (`core`): a feed
/// that mixes them (an `atom:link` in RSS 2.0) reads the same way.
enum FeedNamespace: UInt8 {
  case core, rdf, content, dublinCore, dublinCoreTerms, media, itunes, xhtml
  case podcast, geoRSS, gml, w3cGeo, podloveChapters, syndication, youtube
  case wellFormedWeb, slash, threading, other

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
    // The example in Apple's 2005 specification, which feeds copied.
    "http://example.com/dtds/podcast-1.0.dtd": .itunes,
    "https://podcastindex.org/namespace/1.0": .podcast,
    "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": .podcast,
    "http://www.georss.org/georss": .geoRSS, "http://www.georss.org/georss/": .geoRSS,
    "http://www.opengis.net/gml": .gml, "http://www.w3.org/2003/01/geo/wgs84_pos#": .w3cGeo,
    "http://podlove.org/simple-chapters": .podloveChapters,
    "http://podlove.org/simple-chapters/": .podloveChapters,
    "http://purl.org/rss/1.0/modules/syndication/": .syndication,
    "http://www.youtube.com/xml/schemas/2015": .youtube,
    "http://wellformedweb.org/commentapi/": .wellFormedWeb,
    "http://purl.org/rss/1.0/modules/slash/": .slash,
    "http://purl.org/syndication/thread/1.0": .threading,
    "http://www.w3.org/1999/xhtml": .xhtml,
  ]

  /// Prefixes used without a declaration (libxml2 then reports no URI): feedparser's loose
  /// parser reads them by their customary prefix.
  private static let byPrefix: [String: FeedNamespace] = [
    "atom": .core, "rdf": .rdf, "content": .content, "dc": .dublinCore,
    "dcterms": .dublinCoreTerms, "media": .media, "itunes": .itunes, "xhtml": .xhtml,
    "podcast": .podcast, "georss": .geoRSS, "psc": .podloveChapters, "sy": .syndication,
    "wfw": .wellFormedWeb, "slash": .slash, "thr": .threading,
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
