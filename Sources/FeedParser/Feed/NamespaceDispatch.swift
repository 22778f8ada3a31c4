/// The seam between the builder and the namespace readers: the builder knows where in the
/// document it is and which record is open; each reader knows one namespace's elements and
/// writes into that record, never into the builder.
extension FeedDocumentBuilder {
  /// A namespaced element starts in the current record.
  func startNamespaced(_ route: FieldRoute, attributes: XMLAttributes) {
    if case .media(.content) = route {
      // Also an enclosure, as before: podcasts name one file twice.
      addEnclosure(
        url: attributes.value("url"), type: attributes.value("type"),
        length: attributes.value("fileSize"))
    }
    let start: FieldStart
    if item != nil {
      if itemScope.baseGeneration != baseGeneration {
        itemScope.base = currentBase
        itemScope.baseGeneration = baseGeneration
      }
      itemScope.depth = depth
      start = Self.start(route, attributes, &item!, &itemScope)
    } else {
      if channelScope.baseGeneration != baseGeneration {
        channelScope.base = currentBase
        channelScope.baseGeneration = baseGeneration
      }
      channelScope.depth = depth
      start = Self.start(route, attributes, &channel, &channelScope)
    }
    switch start {
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
  func finishNamespaced(_ capture: TextCapture, text: String) {
    if item != nil {
      if itemScope.baseGeneration != baseGeneration {
        itemScope.base = currentBase
        itemScope.baseGeneration = baseGeneration
      }
      itemScope.depth = depth
      Self.text(capture.route, text, type: capture.type, &item!, &itemScope)
    } else {
      if channelScope.baseGeneration != baseGeneration {
        channelScope.base = currentBase
        channelScope.baseGeneration = baseGeneration
      }
      channelScope.depth = depth
      Self.text(capture.route, text, type: capture.type, &channel, &channelScope)
    }
  }

  private static func start<Record: NamespacedRecord>(
    _ route: FieldRoute, _ attributes: XMLAttributes, _ record: inout Record,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    switch route {
    case .itunes(let element): return ITunesFields.start(element, attributes, &record, &scope)
    case .podcast(let element): return PodcastFields.start(element, attributes, &record, &scope)
    case .media(let element): return MediaFields.start(element, attributes, &record, &scope)
    case .geo(let element): return GeoFields.start(element, attributes, &record, &scope)
    case .chapters(let element): return ChapterFields.start(element, attributes, &record, &scope)
    case .schedule(let element): return ScheduleFields.start(element, attributes, &record, &scope)
    case .youtube: return .text(type: nil)
    case .core, .unmapped: return .children
    }
  }

  private static func text<Record: NamespacedRecord>(
    _ route: FieldRoute, _ text: String, type: String?, _ record: inout Record,
    _ scope: inout NamespaceScope
  ) {
    switch route {
    case .itunes(let element): ITunesFields.text(element, text, &record, &scope)
    case .podcast(let element): PodcastFields.text(element, text, &record, &scope)
    case .media(let element): MediaFields.text(element, text, type: type, &record, &scope)
    case .geo(let element): GeoFields.text(element, text, &record, &scope)
    case .schedule(let element): ScheduleFields.text(element, text, &record, &scope)
    case .youtube(let element): YouTubeFields.text(element, text, &record)
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
    let truncated = current.truncated
    if item != nil {
      Self.attach(finished, truncated: truncated, to: &item!)
    } else {
      Self.attach(finished, truncated: truncated, to: &channel)
    }
  }

  private static func attach<Record: NamespacedRecord>(
    _ finished: (uri: String, name: String, element: FeedExtensions.Element)?, truncated: Bool,
    to record: inout Record
  ) {
    if let finished {
      record.extensions.append(finished.element, namespace: finished.uri, name: finished.name)
    }
    if truncated { record.extensionsTruncated = true }
  }
}
