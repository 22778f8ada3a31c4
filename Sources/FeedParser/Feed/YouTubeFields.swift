/// The elements of YouTube's namespace that a field names.
enum YouTubeElement: UInt8 { case videoID, channelID }

/// YouTube's feeds (`yt:`) into `YouTubeInfo`.
enum YouTubeFields {
  static let rows: [(String, FieldRoute)] = [
    ("videoId", .youtube(.videoID)), ("channelId", .youtube(.channelID)),
  ]

  static func text<Record: NamespacedRecord>(
    _ element: YouTubeElement, _ text: String, _ record: inout Record
  ) {
    let trimmed = text.trimmingSpaces()
    guard !trimmed.isEmpty else { return }
    var youtube = record.youtube ?? YouTubeInfo()
    switch element {
    case .videoID: youtube.videoID = youtube.videoID ?? trimmed
    case .channelID: youtube.channelID = youtube.channelID ?? trimmed
    }
    record.youtube = youtube
  }
}
