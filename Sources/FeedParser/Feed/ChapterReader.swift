/// The elements of Podlove Simple Chapters that a field names.
enum ChapterElement: UInt8 { case chapters, chapter }

/// Podlove Simple Chapters (`psc:`) into the item's `chapters` object (`ChaptersFields`): only
/// the first `psc:chapters` of an item counts (the spec allows one), and a start time is
/// `HH:MM:SS.mmm`, `MM:SS` or seconds, with optional milliseconds.
enum ChapterReader {
  static let rows: [(String, FieldRoute)] = [
    ("chapters", .chapters(.chapters)), ("chapter", .chapters(.chapter)),
  ]

  static func start(
    _ element: ChapterElement, _ attributes: XMLAttributes, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    let storage = record.storage
    switch element {
    case .chapters:
      guard let slot = record.chaptersSlot, !scope.chaptersSeen else { return .ignore }
      scope.chaptersSeen = true
      scope.chaptersDepth = scope.depth
      storage.clear(at: slot)
      let chapters = Block<ChaptersFields>(
        storage.object(at: slot, count: ChaptersFields.fieldCount))
      attributes.store("version", in: storage, chapters, \.version)
      return .children
    case .chapter:
      guard scope.chaptersDepth != nil, let slot = record.chaptersSlot,
        let block = storage.existingObject(at: slot)
      else { return .ignore }
      let chapter = storage.append(Block<ChaptersFields>(block), \.list)
      if let start = attributes.value("start").flatMap(startTime) {
        storage.set(chapter, \.start, number: start)
      }
      attributes.store("title", in: storage, chapter, \.title)
      attributes.storeURL("href", in: storage, chapter, \.href, base: scope.base)
      attributes.storeURL("image", in: storage, chapter, \.image, base: scope.base)
      return .ignore
    }
  }

  /// Seconds, with milliseconds, from `[[HH:]MM:]SS[.mmm]`.
  static func startTime(_ text: String) -> Double? {
    let parts = text.trimmingSpaces().split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    var seconds = 0.0
    for (index, part) in parts.enumerated() {
      let isLast = index == parts.count - 1
      guard !part.isEmpty,
        part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
        let value = Double(part)
      else { return nil }
      seconds = seconds * 60 + value
    }
    return (seconds * 1000).rounded() / 1000
  }
}
