import FeedPullSupport

/// How a field element's text will be read, decided from its name and attributes when it
/// starts: the MIME type it reports, whether children are markup to serialize (Atom `xhtml`,
/// Atom 0.3 `mode="xml"`), and whether the text is base64.
extension FeedDocumentBuilder {
  func beginCapture(_ element: FeedElement, attributes: XMLAttributes) {
    textBuffer.clearKeepingCapacity()
    switch element {
    case .title, .description, .subtitle, .summary, .content, .rights:
      let isAtom =
        channel.version == .atom10 || channel.version == .atom03 || channel.version == .atom
      let defaultType: TextType = element == .description && !isAtom ? .html : .plain
      if let type = Self.commonTextType(attributes, default: defaultType) {
        beginTextCapture(
          TextCapture(
            element: element, depth: depth, form: .text, type: type, isBase64: false,
            unwrapsXHTMLDiv: channel.version == .atom10))
        return
      }
      let typeAttribute = attributes.value("type").map { $0.trimmingSpaces().lowercased() }
      let mode = attributes.value("mode").map { $0.trimmingSpaces().lowercased() }
      let type = typeAttribute.map(Self.textType) ?? defaultType
      // Without a type attribute (most fields of most feeds) the type is a `text/` default:
      // text, never base64, and no string tests.
      var form = TextCapture.Form.text
      if typeAttribute == "xhtml" {
        form = .xhtml
      } else if typeAttribute != nil
        && (type.mimeType.hasSuffix("+xml") || type.mimeType.hasSuffix("/xml"))
      {
        if mode == nil || mode == "xml" { form = .xml }
      }
      // RFC 4287 section 4.1.3.3: other media types than text and XML are base64; Atom 0.3
      // says so with mode="base64".
      let isBase64 =
        mode == "base64"
        || (channel.version == .atom10 && form == .text && typeAttribute != nil
          && !type.mimeType.hasPrefix("text/"))
      beginTextCapture(
        TextCapture(
          element: element, depth: depth, form: form, type: type, isBase64: isBase64,
          unwrapsXHTMLDiv: channel.version == .atom10))
    case .contentEncoded:
      beginTextCapture(TextCapture(element: element, depth: depth, form: .text, type: .html))
    case .guid:
      let permalink = attributes.value("isPermaLink")?.trimmingSpaces().lowercased() != "false"
      beginTextCapture(
        TextCapture(
          element: element, depth: depth, form: .text, type: nil, isPermalink: permalink))
    default:
      beginTextCapture(TextCapture(element: element, depth: depth, form: .text, type: nil))
    }
  }

  /// The text type of the fields of most feeds, read on the attribute's bytes: no `mode`, and
  /// a `type` that is absent (`fallback`), `html` or `text` in any case. nil for anything
  /// else, which the `String` path decides. Atom gives two or three such fields an item, and
  /// making, trimming and lowering a `String` for each, with the tests of its MIME type after,
  /// cost a tenth of an Atom item's reference counting.
  private static func commonTextType(_ attributes: XMLAttributes, default fallback: TextType)
    -> TextType?
  {
    guard case .absent = attributes.trimmedBytes("mode") else { return nil }
    switch attributes.trimmedBytes("type") {
    case .absent: return fallback
    case .plain(let bytes):
      if ASCIIWord.equalsIgnoringCase(bytes, "html") { return .html }
      if ASCIIWord.equalsIgnoringCase(bytes, "text") { return .plain }
      return nil
    case .encoded: return nil
    }
  }

  /// Atom's short type names (RFC 4287 section 3.1.1) as MIME types; others as given.
  private static func textType(_ type: String) -> TextType {
    switch type {
    case "text", "": return .plain
    case "html": return .html
    case "xhtml": return .xhtml
    default: return TextType(mimeType: type)
    }
  }
}
