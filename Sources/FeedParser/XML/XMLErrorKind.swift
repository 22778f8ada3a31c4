/// The libxml2 errors the feed builder tells apart, in its own words: the door
/// (`LibXMLPushParser`) maps libxml2's numeric codes to these, so nothing past the door depends
/// on libxml2's headers.
enum XMLErrorKind: Equatable {
  /// A stray or mismatched end tag (HTML pasted into an item: `a<br>b`).
  case tagNameMismatch
  /// The document ended inside an open element.
  case tagNotFinished
  /// No root element at all.
  case documentEmpty
  /// Something after the root element, or the end of the document where more was expected.
  case documentEnd
  /// Any other error, by libxml2's code.
  case other(Int)
}
