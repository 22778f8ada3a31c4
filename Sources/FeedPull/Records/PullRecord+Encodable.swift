/// Records encode with any `Encoder` (`JSONEncoder`, a property-list or a custom one) as the
/// objects `feedpull --format jsonl` writes: same fields, same names, same omissions. The JSON
/// Lines encoder is the one definition of that shape; these conformances go through it.
extension PullRecord: Encodable {
  /// The record as the one line `feedpull --format jsonl` writes for it, without the newline.
  public var jsonLine: String { JSONLinesEncoding.line(self) }

  /// Encodes the fields of `jsonLine`, no more and no fewer; throws only if that line cannot be read
  /// back, which would be a bug in the JSON Lines encoder.
  public func encode(to encoder: any Encoder) throws {
    guard let value = JSONValueReader.read(jsonLine) else {
      throw EncodingError.invalidValue(
        self, .init(codingPath: encoder.codingPath, debugDescription: "unreadable JSON line"))
    }
    try value.encode(to: encoder)
  }
}

extension FeedRecord: Encodable {
  /// Encodes as the `feed` object of JSON Lines, `type` included.
  public func encode(to encoder: any Encoder) throws {
    try PullRecord.feed(self).encode(to: encoder)
  }
}

extension ItemRecord: Encodable {
  /// Encodes as the `item` object of JSON Lines, `type` included.
  public func encode(to encoder: any Encoder) throws {
    try PullRecord.item(self).encode(to: encoder)
  }
}

extension EndRecord: Encodable {
  /// Encodes as the `end` object of JSON Lines, `type` included.
  public func encode(to encoder: any Encoder) throws {
    try PullRecord.end(self).encode(to: encoder)
  }
}
