/// The elements of Podlove Simple Chapters that a field names.
enum ChapterElement: UInt8 { case chapters, chapter }

/// Podlove Simple Chapters (`psc:`) into `PodloveChapters`: only the first `psc:chapters` of
/// an item counts (the spec allows one), and a start time is `HH:MM:SS.mmm`, `MM:SS` or
/// seconds, with optional milliseconds.
enum ChapterFields {
  static let rows: [(String, FieldRoute)] = [
    ("chapters", .chapters(.chapters)), ("chapter", .chapters(.chapter)),
  ]

  static func start<Record: NamespacedRecord>(
    _ element: ChapterElement, _ attributes: XMLAttributes, _ record: inout Record,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    let base = scope.base
    switch element {
    case .chapters:
      guard scope.isItem, !scope.chaptersSeen else { return .ignore }
      scope.chaptersSeen = true
      scope.chaptersDepth = scope.depth
      record.podloveChapters = PodloveChapters(
        version: attributes.value("version").flatMap(Record.nonEmpty))
      return .children
    case .chapter:
      guard scope.chaptersDepth != nil, var chapters = record.podloveChapters else {
        return .ignore
      }
      chapters.list.append(
        PodloveChapters.Chapter(
          start: attributes.value("start").flatMap(startTime),
          title: attributes.value("title").flatMap(Record.nonEmpty),
          href: attributes.value("href").flatMap(Record.nonEmpty).map {
            NamespaceScope.resolve($0, against: base)
          },
          image: attributes.value("image").flatMap(Record.nonEmpty).map {
            NamespaceScope.resolve($0, against: base)
          }))
      record.podloveChapters = chapters
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
