/// The seam between the builder and the namespace readers: the builder knows where in the
/// document it is and which record is open; each reader knows one namespace's elements and
/// writes into that record, never into the builder.
extension FeedDocumentBuilder {
  /// A namespaced element starts in the current record. A `childless` one (handed over past
  /// libxml2, its text and end to come in one event) whose reader wants its text as it is
  /// needs no text capture: its route is kept until its text arrives, which spares a podcast
  /// item's thirteen such elements the capture's set-up and take-down.
  func startNamespaced(_ route: FieldRoute, attributes: XMLAttributes, childless: Bool = false) {
    if case .media(.content) = route {
      // Also an enclosure: podcasts name one file twice.
      addEnclosure(attributes, lengthAttribute: "fileSize")
    }
    let start = withNamespacedRecord { record in
      if item != nil {
        updateScope(&itemScope)
        return Self.start(route, attributes, record, &itemScope)
      } else {
        updateScope(&channelScope)
        return Self.start(route, attributes, record, &channelScope)
      }
    }
    switch start {
    case .text(nil) where childless:
      pendingNamespacedText = (route, depth)
    case .text(let type):
      textBuffer.clearKeepingCapacity()
      beginTextCapture(TextCapture(route: route, depth: depth, form: .text, type: type))
    case .children:
      break
    case .ignore:
      ignoredDepth = depth
    }
  }

  /// A namespaced element's text is complete.
  func finishNamespaced(_ capture: TextCapture, text: UnsafeBufferPointer<UInt8>) {
    finishNamespaced(capture.route, type: capture.type, text: text)
  }

  /// The text of the namespaced element at `route` is complete.
  func finishNamespaced(_ route: FieldRoute, type: TextType?, text: UnsafeBufferPointer<UInt8>) {
    withNamespacedRecord { record in
      if item != nil {
        updateScope(&itemScope)
        Self.text(route, text, type: type, record, &itemScope)
      } else {
        updateScope(&channelScope)
        Self.text(route, text, type: type, record, &channelScope)
      }
    }
  }

  /// `body` with the record namespaced readers write into, its storage lent without a
  /// retain: read from the builder's property into a value, it was retained and released
  /// around every namespaced element's start and text (a property of a class may change during
  /// a call; the readers never see the builder, so this one does not), some 80,000 atomic
  /// operations in a 5 MB podcast feed.
  @inline(__always)
  private func withNamespacedRecord<Result>(_ body: (NamespacedRecord) -> Result) -> Result {
    let isItem = item != nil
    return Unmanaged.passUnretained(openStorage)._withUnsafeGuaranteedRef { storage in
      body(NamespacedRecord(storage: storage, isItem: isItem))
    }
  }

  /// The scope's base and depth for the element being read; the base copied only when
  /// `xml:base` changed it (a copy a namespaced element was a retain and a release).
  private func updateScope(_ scope: inout NamespaceScope) {
    if scope.baseGeneration != baseGeneration {
      scope.base = currentBase
      scope.baseGeneration = baseGeneration
    }
    scope.depth = depth
  }

  private static func start(
    _ route: FieldRoute, _ attributes: XMLAttributes, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    switch route {
    case .itunes(let element): return ITunesReader.start(element, attributes, record, &scope)
    case .podcast(let element): return PodcastReader.start(element, attributes, record, &scope)
    case .media(let element): return MediaReader.start(element, attributes, record, &scope)
    case .geo(let element): return GeoReader.start(element, attributes, record, &scope)
    case .chapters(let element): return ChapterReader.start(element, attributes, record, &scope)
    case .schedule(let element): return ScheduleReader.start(element, attributes, record, &scope)
    case .youtube: return .text(type: nil)
    case .core, .unmapped: return .children
    }
  }

  private static func text(
    _ route: FieldRoute, _ text: UnsafeBufferPointer<UInt8>, type: TextType?,
    _ record: NamespacedRecord, _ scope: inout NamespaceScope
  ) {
    switch route {
    case .itunes(let element): ITunesReader.text(element, text, record, &scope)
    case .podcast(let element): PodcastReader.text(element, text, record, &scope)
    case .media(let element): MediaReader.text(element, text, type: type, record, &scope)
    case .geo(let element): GeoReader.text(element, text, record, &scope)
    case .schedule(let element): ScheduleReader.text(element, text, record, &scope)
    case .youtube(let element): YouTubeReader.text(element, text, record)
    case .chapters, .core, .unmapped: break
    }
  }

  // MARK: Extensions

  /// An element that no field maps starts: read it whole into `extensions`.
  func startExtension(
    uri: UnsafePointer<UInt8>?, localname: UnsafePointer<UInt8>, attributes: XMLAttributes
  ) {
    guard let uri else { return }
    extensionCapture = ExtensionCapture(
      uri: String(cString: uri), localname: localname, attributes: attributes, depth: depth,
      budget: ExtensionCapture.recordBound - scope.extensionBytes)
  }

  /// The extension element being read ends at the current depth.
  func finishExtension() {
    guard var current = extensionCapture.take() else { return }
    let finished = current.endElement()
    scope.extensionBytes = ExtensionCapture.recordBound - current.budget
    let record = namespacedRecord
    if let finished {
      var extensions =
        record.storage.box(at: record.extensionsSlot, as: FeedExtensions.self) ?? FeedExtensions()
      extensions.append(finished.element, namespace: finished.uri, name: finished.name)
      record.storage.setBox(extensions, at: record.extensionsSlot)
    }
    if current.truncated {
      record.storage.set(RecordSlot(flag: true), at: record.extensionsTruncatedSlot)
    }
  }
}
