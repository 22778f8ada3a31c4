/// The elements of YouTube's namespace that a field names.
enum YouTubeElement: UInt8 { case videoID, channelID }

/// YouTube's feeds (`yt:`) into the record's `youtube` object (`YouTubeFields`): the first of
/// each id counts.
enum YouTubeReader {
  static let rows: [(String, FieldRoute)] = [
    ("videoId", .youtube(.videoID)), ("channelId", .youtube(.channelID)),
  ]

  static func text(
    _ element: YouTubeElement, _ text: UnsafeBufferPointer<UInt8>, _ record: NamespacedRecord
  ) {
    let trimmed = text.trimmedOfXMLSpace
    guard !trimmed.isEmpty else { return }
    let youtube = record.youtube()
    switch element {
    case .videoID: record.storage.setFirst(youtube, \.videoID, trimmed)
    case .channelID: record.storage.setFirst(youtube, \.channelID, trimmed)
    }
  }
}
