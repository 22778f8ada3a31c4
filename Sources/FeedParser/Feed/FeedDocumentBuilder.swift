/// Turns one document's SAX events into a channel and items, handing each item over the moment
/// its end tag is parsed and then forgetting it, so memory does not grow with the item count.
/// Feed formats differ only in `FeedElementTable`'s rows; this type tracks where in the document
/// an element is (feed, item, author, image, an ignored subtree) and what text it is reading.
///
/// Its stored properties are marked `@exclusivity(unchecked)`: they are touched only from
/// libxml2's callbacks on one thread, never with overlapping accesses, and the dynamic checks
/// cost about a tenth of the parse time (measured with perf on a 100 MB feed).
final class FeedDocumentBuilder {
  static func from(_ userData: UnsafeMutableRawPointer) -> FeedDocumentBuilder {
    Unmanaged<FeedDocumentBuilder>.fromOpaque(userData).takeUnretainedValue()
  }

  /// How far the document got, for the parse result.
  enum RootState { case none, feed, notAFeed }

  private let documentURL: String?
  let limits: StreamingFeedParser.Limits
  let emit: (FeedEvent) -> Void
  /// libxml2's parser context while it lives, opaque here: only `LibXMLPushParser`, the door to
  /// libxml2, reads or calls through it.
  private(set) var parserHandle: UnsafeMutableRawPointer?

  // Outcome.
  @exclusivity(unchecked) private(set) var rootState = RootState.none
  @exclusivity(unchecked) var rootClosed = false
  @exclusivity(unchecked) var wellformed = true
  var firstError: String?
  /// Set when we stopped libxml2: nesting or entities past a limit, or a root that is no feed.
  @exclusivity(unchecked) private(set) var stopFailure: FeedParseFailure?
  /// The stop was libxml2's fatal error (before the root, `outcome` says what the body was).
  var stoppedAtFatalError = false
  /// A stray end tag was matched to an open element by libxml2's recovery.
  var mismatchedEndTag = false
  /// Text or elements followed the root's end tag.
  var contentAfterRoot = false
  /// Reading what follows the root element.
  @exclusivity(unchecked) var epilog: EpilogScanner?
  /// Set before libxml2 is told the document is over: errors from then on are about its end.
  var documentEnded = false
  @exclusivity(unchecked) var itemCount = 0

  // Where the parse is.
  @exclusivity(unchecked) private(set) var depth = 0
  private var netscapeDoctype = false
  @exclusivity(unchecked) var expandedEntityCharacters = 0
  /// `xml:base` in effect, innermost last, with the depth of the element that set it.
  @exclusivity(unchecked) private var baseStack: [(depth: Int, uri: String)] = [] {
    didSet { baseGeneration &+= 1 }
  }
  /// Changes with `baseStack`, so that a namespace scope copies the base only when it changed
  /// (a copy a namespaced element was a retain and a release, some thirty an item).
  private(set) var baseGeneration = 0
  @exclusivity(unchecked) var ignoredDepth: Int?
  @exclusivity(unchecked) private var imageDepth: Int?
  /// The field element whose text is read; set with `beginTextCapture`.
  @exclusivity(unchecked) private(set) var capture: TextCapture?
  /// What the capture has written of the markup inside its field.
  @exclusivity(unchecked) private var captureMarkup = CapturedMarkup()
  @exclusivity(unchecked) var textBuffer: [UInt8] = []
  private let routes = ElementRouteCache()
  /// Set by the hand-over for a childless element's start: its text and end come next, in one
  /// `endElement(withText:)`. Read and cleared by every `startElement`.
  @exclusivity(unchecked) var nextElementIsChildless = false
  /// A childless namespaced element whose reader wants its text as it is (no MIME type): its
  /// route and depth, kept until `endElement(withText:)`, in place of a text capture.
  @exclusivity(unchecked) var pendingNamespacedText: (route: FieldRoute, depth: Int)?

  // What is being built.
  @exclusivity(unchecked) var channel = FeedChannel(version: .rss)
  /// The builder's own rows of the channel, after the channel's block in its storage.
  let channelDraft = Block<DraftFields>(ChannelFields.fieldCount)
  @exclusivity(unchecked) var channelSent = false
  @exclusivity(unchecked) var item: ItemDraft?
  /// The storage of the record being read: the open item's, else the channel's; set when an
  /// item opens and closes and when the channel's storage is replaced.
  @exclusivity(unchecked) var openStorage: RecordStorage
  /// The last item's storage, for the next item: set when nobody kept the last item (the
  /// output wrote it and let it go), so that an item costs no allocation.
  @exclusivity(unchecked) var spareItemStorage: RecordStorage?
  @exclusivity(unchecked) var person: PersonDraft?
  /// The `domain` of the RSS `category` whose text is being read (text elements do not nest).
  @exclusivity(unchecked) var categoryDomain: String?
  /// The text directly inside the person being read (`<author>Name</author>`).
  @exclusivity(unchecked) var personText: [UInt8] = []
  /// What the namespace readers remember about the record being read: the channel's, or the
  /// current item's (two places rather than a swap, which copied the scope twice an item).
  @exclusivity(unchecked) var channelScope = NamespaceScope(isItem: false)
  @exclusivity(unchecked) var itemScope = NamespaceScope(isItem: true)
  var scope: NamespaceScope {
    _read {
      if item == nil { yield channelScope } else { yield itemScope }
    }
    _modify {
      if item == nil { yield &channelScope } else { yield &itemScope }
    }
  }
  @exclusivity(unchecked) var extensionCapture: ExtensionCapture?
  /// What `--html` does to fields holding HTML (sanitize, render as text, or nothing).
  @exclusivity(unchecked) var html: HTMLFieldTreatment
  /// The item's `source` element while it is read (Atom: a container of title and links).
  @exclusivity(unchecked) var originDepth: Int?
  var originURLIsSelf = false

  init(
    documentURL: String?, limits: StreamingFeedParser.Limits, html: HTMLMode = .safe,
    emit: @escaping (FeedEvent) -> Void
  ) {
    self.documentURL = documentURL
    self.limits = limits
    self.html = HTMLFieldTreatment(html)
    self.emit = emit
    openStorage = channel.storage
    _ = channel.storage.appendSlots(DraftFields.fieldCount)
  }

  /// Set by `LibXMLPushParser` while its context lives; nil once it has freed it.
  func attach(parserHandle: UnsafeMutableRawPointer?) { self.parserHandle = parserHandle }

  /// Open elements, held text and pending `xml:base` values: the state that a long document
  /// must not make grow (tests assert a bound on it).
  var retainedStateSize: Int {
    depth + baseStack.count + textBuffer.count
      + (capture == nil ? 0 : captureMarkup.openNames.count)
      + (item == nil ? 0 : 1)
  }

  var isStopped: Bool { stopFailure != nil }

  // MARK: SAX events

  func doctype(publicID: UnsafePointer<UInt8>?, systemID: UnsafePointer<UInt8>?) {
    // feedparser reports RSS 0.91 with Netscape's DOCTYPE as `rss091n`.
    for id in [publicID, systemID] {
      if let id, String(cString: id).lowercased().contains("netscape") { netscapeDoctype = true }
    }
  }

  func startElement(
    localname: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?,
    uri: UnsafePointer<UInt8>?, namespaces: UnsafeBufferPointer<UnsafePointer<UInt8>?>,
    attributes: XMLAttributes
  ) {
    depth += 1
    let childless = nextElementIsChildless
    nextElementIsChildless = false
    guard !isStopped else { return }
    if depth > limits.maxDepth {
      stop(.xml, "elements nested deeper than \(limits.maxDepth)")
      return
    }
    if capture != nil {
      capture!.startElement(
        localname: localname, prefix: prefix, uri: uri, attributes: attributes, depth: depth,
        markup: &captureMarkup, into: &textBuffer)
      return
    }
    if ignoredDepth != nil { return }
    if extensionCapture != nil {
      extensionCapture!.startElement(
        uri: uri.map { String(cString: $0) }, localname: localname, attributes: attributes)
      return
    }
    if attributes.count > 0, let base = attributes.value("base", inXMLNamespace: true) {
      baseStack.append((depth, URIResolver.resolve(base, against: currentBase)))
    }
    let element = routes.route(localname: localname, prefix: prefix, uri: uri)
    if rdfVersionPending && depth > 1 { noteRDFChild(uri: uri.map { String(cString: $0) }) }
    if depth == 1 {
      guard case .core(let element) = element else {
        startRoot(.unknown, uri: uri, attributes: attributes)
        return
      }
      startRoot(element, uri: uri, attributes: attributes)
      if element == .rdf {
        // Declared namespaces are (prefix, URI) pairs.
        for index in stride(from: 1, to: namespaces.count, by: 2) {
          noteRDFChild(uri: namespaces[index].map { String(cString: $0) })
        }
      }
    } else if case .core(let core) = element {
      start(core, attributes: attributes)
    } else if originDepth != nil {
      ignoredDepth = depth
    } else if element == .unmapped {
      startExtension(uri: uri, localname: localname, attributes: attributes)
    } else {
      startNamespaced(element, attributes: attributes, childless: childless)
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
        // Moved out, not copied: a copy and a destroy of the capture went through its value
        // witnesses, a few hundred instructions per field element.
        finish(capture.take()!)
      } else {
        capture!.endElement(depth: depth, markup: &captureMarkup, into: &textBuffer)
      }
      return
    }
    if let ignored = ignoredDepth {
      if depth == ignored { ignoredDepth = nil }
      return
    }
    if let extensionDepth = extensionCapture?.depth {
      if depth == extensionDepth {
        finishExtension()
      } else {
        _ = extensionCapture!.endElement()
      }
      return
    }
    // Directly, not through `scope`: an accessor's coroutine per end tag showed in the profile.
    if item != nil {
      itemScope.endElement(depth: depth)
    } else {
      channelScope.endElement(depth: depth)
    }
    if depth == originDepth { originDepth = nil }
    if depth == imageDepth { imageDepth = nil }
    if person?.depth == depth { finishPerson() }
    if item?.depth == depth { finishItem() }
    if depth == 1 {
      rootClosed = true
      beginEpilog()
    }
  }

  /// The text of a childless element and its end, as `characters` (when `text` is not empty)
  /// and `endElement` would take them. A namespaced field's reader gets the text where it
  /// lies, without the copy into the capture buffer and the buffer's clearing after: a podcast
  /// item has some thirteen such fields (docs/namespaces.md).
  func endElement(withText text: UnsafeBufferPointer<UInt8>) {
    if let pending = pendingNamespacedText {
      pendingNamespacedText = nil
      if !isStopped && pending.depth == depth {
        finishNamespaced(pending.route, type: nil, text: text)
      }
      if let last = baseStack.last, last.depth == depth { baseStack.removeLast() }
      depth -= 1
      return
    }
    guard !isStopped, capture?.depth == depth, capture?.isNamespacedText == true,
      textBuffer.isEmpty
    else {
      if !text.isEmpty { characters(text) }
      return endElement()
    }
    let field = capture.take()!
    finishNamespaced(field, text: text)
    if let last = baseStack.last, last.depth == depth { baseStack.removeLast() }
    depth -= 1
  }

  func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard !isStopped else { return }
    if capture != nil {
      capture!.characters(
        bytes, depth: depth, wrapperClosed: captureMarkup.wrapperClosed, into: &textBuffer)
    } else if ignoredDepth != nil {
      return
    } else if extensionCapture != nil {
      extensionCapture!.characters(bytes)
    } else if person != nil {
      // Also the text of markup inside a person element (`<author><p>Name</p></author>`).
      personText.append(contentsOf: bytes)
    }
  }

  /// Hands over the channel if no item did; called once the document has ended.
  func finishDocument() {
    if rootState == .feed && !channelSent { sendChannel() }
  }

  // MARK: Structure

  private func startRoot(
    _ element: FeedElement, uri: UnsafePointer<UInt8>?, attributes: XMLAttributes
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
    case .item where namespace == "http://www.w3.org/2005/atom":
      // An Atom entry document (RFC 4287 section 4.1.2): a feed of that one entry, its `source`
      // standing for the feed.
      channel.version = .atom10
      isEntryDocument = true
      item = ItemDraft(index: 0, storage: takeItemStorage(), depth: depth)
      openStorage = item!.storage
      itemScope.reset()
    default:
      rootState = .notAFeed
      stop(.notAFeed, "the root element is not RSS, RDF or Atom")
      return
    }
    rootState = .feed
    if let language = attributes.value("lang", inXMLNamespace: true), !language.isEmpty {
      openStorage.setText(.root, \ChannelFields.language, language)
    }
  }

  /// The root is an Atom `entry`: the document is a feed of that one item.
  private(set) var isEntryDocument = false

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
    case _ where originDepth != nil && element != .title && element != .link:
      ignoredDepth = depth
    case .item:
      if item == nil {
        item = ItemDraft(index: itemCount, storage: takeItemStorage(), depth: depth)
        openStorage = item!.storage
        if let about = attributes.value("about"), !about.isEmpty {
          openStorage.setText(.root, \ItemFields.id, about)
        }
        itemScope.reset()
      }
    case .author, .contributor:
      if person == nil {
        let slot = openDraft.slot(\.person)
        openStorage.clear(at: slot)
        person = PersonDraft(
          depth: depth, isContributor: element == .contributor, storage: openStorage,
          isItem: item != nil,
          person: Block(openStorage.object(at: slot, count: PersonFields.fieldCount)))
        personText.clearKeepingCapacity()
      } else {
        ignoredDepth = depth
      }
    case .source:
      startOrigin(attributes)
    case .inReplyTo:
      if item != nil {
        let reply = openStorage.append(Block<ItemFields>.root, \.inReplyTo)
        attributes.store("ref", in: openStorage, reply, \.ref)
        attributes.storeURL("href", in: openStorage, reply, \.href, base: currentBase)
        attributes.store("type", in: openStorage, reply, \.type)
      }
      ignoredDepth = depth
    case .textInput:
      ignoredDepth = depth
    case .image:
      if item == nil { imageDepth = depth } else { ignoredDepth = depth }
    case .enclosure:
      addEnclosure(attributes, lengthAttribute: "length")
    case .link where attributes.value("href") != nil || isAtom:
      addLink(attributes)
      ignoredDepth = depth
    case .category:
      if var term = attributes.value("term") {
        let scheme = attributes.value("scheme")
        let label = attributes.value("label")
        term.withUTF8 { addCategory($0, scheme: scheme, label: label) }
        ignoredDepth = depth
      } else {
        categoryDomain = attributes.value("domain")
        beginCapture(element, attributes: attributes)
      }
    default:
      beginCapture(element, attributes: attributes)
    }
  }

  /// `capture`'s field element starts: its text is read from here on.
  func beginTextCapture(_ capture: TextCapture) {
    captureMarkup.reset()
    self.capture = capture
  }

  private func finish(_ capture: TextCapture) {
    // The text moves out of the builder for the calls below and back after: passed from the
    // builder's property, each call retained and released the buffer (a class's stored array
    // may change during a call), once for every field of every item.
    var buffer: [UInt8] = []
    swap(&buffer, &textBuffer)
    defer {
      if buffer.capacity <= 1 << 16 {
        buffer.clearKeepingCapacity()
        swap(&buffer, &textBuffer)
      } else {
        textBuffer = []
      }
    }
    buffer.withUnsafeBufferPointer { text in
      guard case .core = capture.route else { return finishNamespaced(capture, text: text) }
      if capture.isBase64,
        var decoded = Base64Text.decode(String(decoding: text, as: UTF8.self))
      {
        return decoded.withUTF8 { assign(capture, text: $0) }
      }
      if item != nil && capture.element.isItemBody {
        assignItemBody(capture, text: text)
      } else {
        assign(capture, text: text)
      }
    }
  }

  // MARK: Helpers

  var currentBase: String? { baseStack.last?.uri ?? documentURL }

  func resolve(_ reference: String) -> String {
    URIResolver.resolve(reference, against: currentBase)
  }

  var isInImage: Bool { imageDepth != nil }

  /// The record namespaced readers write into: the item being read, else the channel.
  var namespacedRecord: NamespacedRecord {
    NamespacedRecord(storage: openStorage, isItem: item != nil)
  }

  /// The builder's own rows of the record being read (`DraftFields`).
  var openDraft: Block<DraftFields> {
    item != nil ? Block(ItemFields.fieldCount) : channelDraft
  }

  /// A storage for the next item: the last one's, when nobody kept it, else a new one; with
  /// the builder's draft rows after the item's own.
  private func takeItemStorage() -> RecordStorage {
    let storage: RecordStorage
    if let spare = spareItemStorage.take() {
      spare.reset()
      storage = spare
    } else {
      storage = RecordStorage(rootCount: ItemFields.fieldCount, bytes: 4096, slots: 256)
    }
    _ = storage.appendSlots(DraftFields.fieldCount)
    return storage
  }

  func noteRDFChild(uri: String?) {
    guard rdfVersionPending, let uri else { return }
    if uri == "http://my.netscape.com/rdf/simple/0.9/" {
      channel.version = .rss090
      rdfVersionPending = false
    } else if uri == "http://purl.org/rss/1.0/" {
      rdfVersionPending = false
    }
  }

  /// An element had more attributes than `limits.maxAttributes`: the first ones were kept, and
  /// the document is not well-formed.
  func noteTooManyAttributes() {
    wellformed = false
    if firstError == nil {
      firstError = "an element with more than \(limits.maxAttributes) attributes (the rest dropped)"
    }
  }

  func stop(_ kind: FeedParseFailure.Kind, _ message: String) {
    guard stopFailure == nil else { return }
    stopFailure = FeedParseFailure(kind: kind, message: message)
    LibXMLPushParser.stop(parserHandle)
  }
}
