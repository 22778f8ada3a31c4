/// Text going into a record from the document's bytes: trimmed on the bytes, a URL resolved
/// only when it is relative, numbers and dates read in place. Every reader stores through
/// these, so that a value is copied into the record once and never becomes a `String` on the
/// way (docs/parser.md, "Where an item's bytes live").
extension UnsafeBufferPointer where Element == UInt8 {
  /// The bytes without surrounding XML white space.
  @inline(__always)
  var trimmedOfXMLSpace: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: self[xmlSpaceTrimmedRange])
  }

  /// True when some byte is not XML white space.
  @inline(__always)
  var hasNonSpace: Bool { contains(where: { !$0.isXMLSpace }) }
}

extension RecordStorage {
  /// Sets the slot at `index` to `reference` resolved against `base`: the bytes themselves
  /// when they are an absolute http(s) URL (nearly every URL of a feed), else the resolver's
  /// answer.
  func setURL(_ reference: UnsafeBufferPointer<UInt8>, at index: Int, base: String?) {
    if URLBytes.isPlainHTTPURL(reference) {
      setText(reference, at: index)
    } else {
      setText(
        URIResolver.resolve(String(decoding: reference, as: UTF8.self), against: base), at: index)
    }
  }

  /// `setURL` for a field.
  @inline(__always)
  func setURL<S>(
    _ block: Block<S>, _ field: KeyPath<S, Field<String>>, _ reference: UnsafeBufferPointer<UInt8>,
    base: String?
  ) {
    setURL(reference, at: block.slot(field), base: base)
  }

  /// Sets a date field from its trimmed text: the instant when it can be read, else the text.
  @inline(__always)
  func setDate<S>(
    _ block: Block<S>, _ field: KeyPath<S, Field<FeedDate>>, _ text: UnsafeBufferPointer<UInt8>
  ) {
    set(block, field, instant: FeedDateParser.parse(bytes: text), text: text)
  }

  /// Sets the slot at `index` to `text`'s bytes.
  func setText(_ text: Substring, at index: Int) {
    var text = String(text)
    text.withUTF8 { setText($0, at: index) }
  }
}

/// URLs as bytes.
enum URLBytes {
  /// `http://` or `https://` in lower case and no white space at either end: a URL that
  /// resolves to itself whatever the base.
  static func isPlainHTTPURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count > 8, let last = bytes.last, !last.isXMLSpace,
      bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"),
      bytes[2] == UInt8(ascii: "t"), bytes[3] == UInt8(ascii: "p")
    else { return false }
    let rest = bytes[4] == UInt8(ascii: "s") ? 5 : 4
    return bytes[rest] == UInt8(ascii: ":") && bytes[rest + 1] == UInt8(ascii: "/")
      && bytes[rest + 2] == UInt8(ascii: "/")
  }
}

extension FeedDateParser {
  /// `parse` on the text's UTF-8: the common shapes read in place, the rest through the
  /// general forms.
  static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    CommonDateShapes.seconds(in: bytes)
      ?? parseAnyForm(String(decoding: bytes, as: UTF8.self))
  }
}
