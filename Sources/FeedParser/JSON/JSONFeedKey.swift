/// The JSON Feed object keys feedpull reads (jsonfeed.org versions 1 and 1.1), as one table:
/// adding a field is adding a row. Every other key, and every `_extension` object (keys that
/// begin with `_`, which the specification reserves for publishers' own data), is skipped.
enum JSONFeedKey: Equatable {
  case version, title, homePageURL, feedURL, description, icon, favicon, language, expired
  case author, authors, hubs, items
  case id, url, externalURL, contentHTML, contentText, summary, image
  case datePublished, dateModified, tags, attachments
  case name, mimeType, sizeInBytes, durationInSeconds
  case other

  private static let rows: [(name: StaticString, key: JSONFeedKey)] = [
    ("version", .version), ("title", .title), ("home_page_url", .homePageURL),
    ("feed_url", .feedURL), ("description", .description), ("icon", .icon),
    ("favicon", .favicon), ("language", .language), ("expired", .expired),
    ("author", .author), ("authors", .authors), ("hubs", .hubs), ("items", .items),
    ("id", .id), ("url", .url), ("external_url", .externalURL), ("content_html", .contentHTML),
    ("content_text", .contentText), ("summary", .summary), ("image", .image),
    ("date_published", .datePublished), ("date_modified", .dateModified), ("tags", .tags),
    ("attachments", .attachments), ("name", .name), ("mime_type", .mimeType),
    ("size_in_bytes", .sizeInBytes), ("duration_in_seconds", .durationInSeconds),
  ]

  /// The rows by the length of their names (no name is longer than 19 bytes).
  private static let rowsByLength: [[(name: StaticString, key: JSONFeedKey)]] = {
    var table = Array(repeating: [(name: StaticString, key: JSONFeedKey)](), count: 21)
    for row in rows { table[row.name.utf8CodeUnitCount].append(row) }
    return table
  }()

  /// The row whose name is `bytes`, compared in place: a `String` made of every key and
  /// hashed into a dictionary cost 5% of a JSON Feed's parse.
  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let first = bytes.first, first != UInt8(ascii: "_"), bytes.count <= 20 else {
      self = .other
      return
    }
    for row in Self.rowsByLength[bytes.count] where row.name.utf8Start.pointee == first {
      if Self.equal(row.name, bytes) {
        self = row.key
        return
      }
    }
    self = .other
  }

  private static func equal(_ name: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = name.utf8Start
    for index in 1..<bytes.count where start[index] != bytes[index] { return false }
    return true
  }
}

/// Where in a JSON Feed the parser is: the object or array a value belongs to. The context of
/// a nested value follows from its parent's and the key it stands under (`child`), so the
/// reader needs no copy of the document, only a stack of these.
enum JSONFeedContext: Equatable {
  case document
  case feed
  case feedAuthor, feedAuthorList, feedAuthorListEntry
  case hubList, hub
  case itemList, item
  case itemAuthor, itemAuthorList, itemAuthorListEntry
  case tagList
  case attachmentList, attachment
  /// A value nothing is read from, with everything inside it.
  case skipped

  /// The context of an object (`isObject`) or array opening under `key` in `self`.
  func child(key: JSONFeedKey?, isObject: Bool) -> JSONFeedContext {
    switch (self, key, isObject) {
    case (.document, _, true): .feed
    case (.feed, .author, true): .feedAuthor
    case (.feed, .authors, false): .feedAuthorList
    case (.feedAuthorList, _, true): .feedAuthorListEntry
    case (.feed, .hubs, false): .hubList
    case (.hubList, _, true): .hub
    case (.feed, .items, false): .itemList
    case (.itemList, _, true): .item
    case (.item, .author, true): .itemAuthor
    case (.item, .authors, false): .itemAuthorList
    case (.itemAuthorList, _, true): .itemAuthorListEntry
    case (.item, .tags, false): .tagList
    case (.item, .attachments, false): .attachmentList
    case (.attachmentList, _, true): .attachment
    default: .skipped
    }
  }

  var isPerson: Bool {
    switch self {
    case .feedAuthor, .feedAuthorListEntry, .itemAuthor, .itemAuthorListEntry: true
    default: false
    }
  }
}
