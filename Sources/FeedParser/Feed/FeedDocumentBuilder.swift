import CLibXML2

/// Its stored properties are marked `@exclusivity(unchecked)`: they are touched only from
/// libxml2's callbacks on one thread, never with overlapping accesses, and the dynamic checks
/// cost about a tenth of the parse time (measured with perf on a 100 MB feed).
///
/// Turns one document's SAX events into a channel and items, handing each item over the moment
/// its end tag is parsed and then forgetting it, so memory does not grow with the item count.
/// Feed formats differ only in `FeedElementTable`'s rows; this type tracks where in the document
/// an element is (feed, item, author, image, an ignored subtree) and what text it is reading.
final class FeedDocumentBuilder {
  static func from(_ userData: UnsafeMutableRawPointer) -> FeedDocumentBuilder {
    Unmanaged<FeedDocumentBuilder>.fromOpaque(userData).takeUnretainedValue()
  }

  /// How far the document got, for the parse result.
  enum RootState { case none, feed, notAFeed }

  private let documentURL: String?
  private let limits: StreamingFeedParser.Limits
  private let emit: (FeedEvent) -> Void
  private(set) var context: xmlParserCtxtPtr?

  // Outcome.
  @exclusivity(unchecked) private(set) var rootState = RootState.none
  @exclusivity(unchecked) private(set) var rootClosed = false
  @exclusivity(unchecked) private(set) var wellformed = true
  private(set) var firstError: String?
  /// Set when we stopped libxml2: nesting or entities past a limit, or a root that is no feed.
  @exclusivity(unchecked) private(set) var stopFailure: FeedParseFailure?
  @exclusivity(unchecked) private(set) var itemCount = 0

  // Where the parse is.
  @exclusivity(unchecked) private var depth = 0
  private var netscapeDoctype = false
  @exclusivity(unchecked) private var expandedEntityCharacters = 0
  /// `xml:base` in effect, innermost last, with the depth of the element that set it.
  @exclusivity(unchecked) private var baseStack: [(depth: Int, uri: String)] = []
  @exclusivity(unchecked) private var ignoredDepth: Int?
  @exclusivity(unchecked) private var imageDepth: Int?
  @exclusivity(unchecked) private var capture: TextCapture?
  @exclusivity(unchecked) private var textBuffer: [UInt8] = []
  @exclusivity(unchecked) private var elementCache: [ElementKey: FeedElement] = [:]

  // What is being built.
  @exclusivity(unchecked) var channel = FeedChannel(version: .rss)
  @exclusivity(unchecked) private var channelSent = false
  var channelITunesAuthor: FeedPerson?
  @exclusivity(unchecked) var item: ItemDraft?
  @exclusivity(unchecked) var person: PersonDraft?

  init(
    documentURL: String?, limits: StreamingFeedParser.Limits,
    emit: @escaping (FeedEvent) -> Void
  ) {
    self.documentURL = documentURL
    self.limits = limits
    self.emit = emit
  }

  func attach(context: xmlParserCtxtPtr) { self.context = context }

  /// Open elements, held text and pending `xml:base` values: the state that a long document
  /// must not make grow (tests assert a bound on it).
  var retainedStateSize: Int {
    depth + baseStack.count + textBuffer.count + (capture?.openElementCount ?? 0)
      + (item == nil ? 0 : 1)
  }

  var isStopped: Bool { stopFailure != nil }

  // MARK: SAX events

  func doctype(publicID: UnsafePointer<xmlChar>?, systemID: UnsafePointer<xmlChar>?) {
    // feedparser reports RSS 0.91 with Netscape's DOCTYPE as `rss091n`.
    for id in [publicID, systemID] {
      if let id, String(cString: id).lowercased().contains("netscape") { netscapeDoctype = true }
    }
  }

  func entity(named name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    guard !isStopped, let context, let entity = xmlSAX2GetEntity(context, name) else {
      return nil
    }
    if entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY {
      expandedEntityCharacters += Int(entity.pointee.length)
      if expandedEntityCharacters > limits.maxEntityExpansion {
        stop(.xml, "entity references expand to more than \(limits.maxEntityExpansion) characters")
        return nil
      }
    }
    return entity
  }

  func parameterEntity(named name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    guard !isStopped, let context, let entity = xmlSAX2GetParameterEntity(context, name) else {
      return nil
    }
    if entity.pointee.etype == XML_INTERNAL_PARAMETER_ENTITY {
      expandedEntityCharacters += Int(entity.pointee.length)
      if expandedEntityCharacters > limits.maxEntityExpansion {
        stop(.xml, "entity references expand to more than \(limits.maxEntityExpansion) characters")
        return nil
      }
    }
    return entity
  }

  func xmlError(message: String, line: Int, code: Int) {
    wellformed = false
    if firstError == nil { firstError = "line \(line): \(message.trimmingSpaces())" }
  }

  func startElement(
    localname: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
    uri: UnsafePointer<xmlChar>?, namespaces: UnsafeBufferPointer<UnsafePointer<xmlChar>?>,
    attributes: XMLAttributes
  ) {
    depth += 1
    guard !isStopped else { return }
    if depth > limits.maxDepth {
      stop(.xml, "elements nested deeper than \(limits.maxDepth)")
      return
    }
    if capture != nil {
      capture!.startElement(
        localname: localname, prefix: prefix, uri: uri, attributes: attributes, depth: depth,
        into: &textBuffer)
      return
    }
    if ignoredDepth != nil { return }
    if attributes.count > 0, let base = attributes.value("base", inXMLNamespace: true) {
      baseStack.append((depth, URIResolver.resolve(base, against: currentBase)))
    }
    let element = lookUp(localname: localname, prefix: prefix, uri: uri)
    if depth == 1 {
      startRoot(element, uri: uri, attributes: attributes)
      if element == .rdf {
        // Declared namespaces are (prefix, URI) pairs.
        for index in stride(from: 1, to: namespaces.count, by: 2) {
          noteRDFChild(uri: namespaces[index].map { String(cString: $0) })
        }
      }
    } else {
      start(element, attributes: attributes)
    }
  }

  func endElement() {
    defer {
      if let last = baseStack.last, last.depth == depth { baseStack.removeLast() }
      depth -= 1
    }
    guard !isStopped else { return }
    if capture != nil {
      if depth == capture!.depth {
        let current = capture!
        capture = nil
        finish(current)
      } else {
        capture!.endElement(depth: depth, into: &textBuffer)
      }
      return
    }
    if let ignored = ignoredDepth {
      if depth == ignored { ignoredDepth = nil }
      return
    }
    if depth == imageDepth { imageDepth = nil }
    if person?.depth == depth { finishPerson() }
    if item?.depth == depth { finishItem() }
    if depth == 1 { rootClosed = true }
  }

  func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard !isStopped else { return }
    if capture != nil {
      capture!.characters(bytes, depth: depth, into: &textBuffer)
    } else if person?.depth == depth, ignoredDepth == nil {
      person!.text.append(contentsOf: bytes)
    }
  }

  /// Hands over the channel if no item did; called once the document has ended.
  func finishDocument() {
    if rootState == .feed && !channelSent { sendChannel() }
  }

  // MARK: Structure

  private func startRoot(
    _ element: FeedElement, uri: UnsafePointer<xmlChar>?, attributes: XMLAttributes
  ) {
    let namespace = uri.map { String(cString: $0).lowercased() }
    switch element {
    case .rss:
      channel.version = netscapeDoctype ? .rss091n : Self.rssVersion(attributes.value("version"))
    case .rdf:
      channel.version = .rss10
      rdfVersionPending = true
    case .atomFeed:
      if namespace == "http://www.w3.org/2005/atom" {
        channel.version = .atom10
      } else {
        channel.version = attributes.value("version") == "0.3" ? .atom03 : .atom
      }
    default:
      rootState = .notAFeed
      stop(.notAFeed, "the root element is not RSS, RDF or Atom")
      return
    }
    rootState = .feed
    if let language = attributes.value("lang", inXMLNamespace: true), !language.isEmpty {
      channel.language = language
    }
  }

  /// RSS 1.0 and RSS 0.90 share the `rdf:RDF` root; the namespace of its children tells them
  /// apart, as feedparser does.
  @exclusivity(unchecked) private var rdfVersionPending = false

  private static func rssVersion(_ attribute: String?) -> FeedVersion {
    switch attribute?.trimmingSpaces() {
    case "0.91": return .rss091u
    case "0.92": return .rss092
    case "0.93": return .rss093
    case "0.94": return .rss094
    case let version? where version.hasPrefix("2."): return .rss20
    default: return .rss
    }
  }

  private func start(_ element: FeedElement, attributes: XMLAttributes) {
    switch element {
    case .channel, .rss, .rdf, .atomFeed, .unknown:
      break
    case .item:
      if item == nil {
        item = ItemDraft(index: itemCount, depth: depth)
        if let about = attributes.value("about"), !about.isEmpty { item!.item.id = about }
      }
    case .author:
      if person == nil { person = PersonDraft(depth: depth) } else { ignoredDepth = depth }
    case .contributor, .source, .textInput:
      ignoredDepth = depth
    case .image:
      if item == nil { imageDepth = depth } else { ignoredDepth = depth }
    case .enclosure:
      addEnclosure(
        url: attributes.value("url"), type: attributes.value("type"),
        length: attributes.value("length"))
    case .mediaContent:
      addEnclosure(
        url: attributes.value("url"), type: attributes.value("type"),
        length: attributes.value("fileSize"))
    case .itunesImage:
      if item == nil, let href = attributes.value("href"), !href.trimmingSpaces().isEmpty {
        channel.image = resolve(href)
      }
    case .link where attributes.value("href") != nil:
      addLink(attributes)
    case .category:
      if let term = attributes.value("term") {
        addCategory(term)
        ignoredDepth = depth
      } else {
        beginCapture(element, attributes: attributes)
      }
    default:
      beginCapture(element, attributes: attributes)
    }
  }

  private func beginCapture(_ element: FeedElement, attributes: XMLAttributes) {
    textBuffer.removeAll(keepingCapacity: true)
    switch element {
    case .title, .description, .subtitle, .summary, .content, .rights:
      let isAtom =
        channel.version == .atom10 || channel.version == .atom03 || channel.version == .atom
      let typeAttribute = attributes.value("type").map { $0.trimmingSpaces().lowercased() }
      let mode = attributes.value("mode").map { $0.trimmingSpaces().lowercased() }
      let defaultType = element == .description && !isAtom ? "text/html" : "text/plain"
      let type = typeAttribute.map(Self.mimeType) ?? defaultType
      var form = TextCapture.Form.text
      if typeAttribute == "xhtml" {
        form = .xhtml
      } else if type.hasSuffix("+xml") || type.hasSuffix("/xml") {
        if mode == nil || mode == "xml" { form = .xml }
      }
      // RFC 4287 section 4.1.3.3: other media types than text and XML are base64; Atom 0.3
      // says so with mode="base64".
      let isBase64 =
        mode == "base64"
        || (channel.version == .atom10 && form == .text && !type.hasPrefix("text/"))
      capture = TextCapture(
        element: element, depth: depth, form: form, type: type, isBase64: isBase64,
        unwrapsXHTMLDiv: channel.version == .atom10)
    case .contentEncoded:
      capture = TextCapture(element: element, depth: depth, form: .text, type: "text/html")
    case .guid:
      let permalink = attributes.value("isPermaLink")?.trimmingSpaces().lowercased() != "false"
      capture = TextCapture(
        element: element, depth: depth, form: .text, type: nil, isPermalink: permalink)
    default:
      capture = TextCapture(element: element, depth: depth, form: .text, type: nil)
    }
  }

  /// Atom's short type names (RFC 4287 section 3.1.1) as MIME types; others as given.
  private static func mimeType(_ type: String) -> String {
    switch type {
    case "text", "": return "text/plain"
    case "html": return "text/html"
    case "xhtml": return "application/xhtml+xml"
    default: return type
    }
  }

  private func finish(_ capture: TextCapture) {
    var text = String(decoding: textBuffer, as: UTF8.self)
    textBuffer.removeAll(keepingCapacity: textBuffer.capacity <= 1 << 16)
    if capture.isBase64, let decoded = Base64Text.decode(text) { text = decoded }
    assign(capture, text: text)
  }

  private func sendChannel() {
    channelSent = true
    if channel.authors.isEmpty, let fallback = channelITunesAuthor {
      channel.authors.append(fallback)
    }
    emit(.channel(channel))
  }

  private func finishItem() {
    guard var draft = item else { return }
    item = nil
    if draft.item.link == nil, let guid = draft.guid, draft.guidIsPermalink,
      Self.looksLikeURL(guid)
    {
      draft.item.link = guid
    }
    if draft.item.authors.isEmpty, let fallback = draft.iTunesAuthor {
      draft.item.authors.append(fallback)
    }
    if !channelSent { sendChannel() }
    itemCount += 1
    emit(.item(draft.item))
  }

  /// An absolute http(s) URL: what a guid must be to stand in for a missing link.
  private static func looksLikeURL(_ text: String) -> Bool {
    let lowered = text.lowercased()
    return (lowered.hasPrefix("http://") || lowered.hasPrefix("https://"))
      && !text.contains(" ")
  }

  private func finishPerson() {
    guard var draft = person else { return }
    person = nil
    if draft.person.name == nil && draft.person.email == nil && draft.person.uri == nil {
      let text = String(decoding: draft.text, as: UTF8.self)
      guard let parsed = PersonTextParser.person(from: text) else { return }
      draft.person = parsed
    }
    addAuthor(draft.person)
  }

  // MARK: Helpers

  var currentBase: String? { baseStack.last?.uri ?? documentURL }

  func resolve(_ reference: String) -> String {
    URIResolver.resolve(reference, against: currentBase)
  }

  var isInImage: Bool { imageDepth != nil }

  func noteRDFChild(uri: String?) {
    guard rdfVersionPending, let uri else { return }
    if uri == "http://my.netscape.com/rdf/simple/0.9/" {
      channel.version = .rss090
      rdfVersionPending = false
    } else if uri == "http://purl.org/rss/1.0/" {
      rdfVersionPending = false
    }
  }

  private func stop(_ kind: FeedParseFailure.Kind, _ message: String) {
    guard stopFailure == nil else { return }
    stopFailure = FeedParseFailure(kind: kind, message: message)
    if let context { xmlStopParser(context) }
  }

  private struct ElementKey: Hashable {
    let localname: UnsafeRawPointer
    let uri: UnsafeRawPointer?
    let prefix: UnsafeRawPointer?
  }

  /// libxml2 interns names in the context's dictionary, so a name's address identifies it for
  /// the whole parse: each distinct element is classified once.
  private func lookUp(
    localname: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
    uri: UnsafePointer<xmlChar>?
  ) -> FeedElement {
    let key = ElementKey(
      localname: UnsafeRawPointer(localname), uri: uri.map(UnsafeRawPointer.init),
      prefix: uri == nil ? prefix.map(UnsafeRawPointer.init) : nil)
    if let element = elementCache[key] {
      if rdfVersionPending { noteRDFChild(uri: uri.map { String(cString: $0) }) }
      return element
    }
    let uriText = uri.map { String(cString: $0) }
    if rdfVersionPending && depth > 1 { noteRDFChild(uri: uriText) }
    let namespace = FeedNamespace.classify(uri: uriText, prefix: prefix.map { String(cString: $0) })
    let element = FeedElementTable.element(
      namespace: namespace, localName: String(cString: localname))
    elementCache[key] = element
    return element
  }
}

/// The item being read, with what decides its fields at its end.
struct ItemDraft {
  var item: FeedItem
  let depth: Int
  var guid: String?
  var guidIsPermalink = true
  var iTunesAuthor: FeedPerson?

  init(index: Int, depth: Int) {
    item = FeedItem(index: index)
    self.depth = depth
  }
}

/// An Atom `author` (name, email, uri children) or an RSS `author` ("email (Name)" text).
struct PersonDraft {
  let depth: Int
  var person = FeedPerson()
  var text: [UInt8] = []

  init(depth: Int) { self.depth = depth }
}
