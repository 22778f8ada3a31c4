/// What becomes of a text field that holds HTML (`*_type` `text/html` or
/// `application/xhtml+xml`): the command's `--html MODE` and `FeedPuller.Configuration.html`.
public enum HTMLMode: String, Sendable, CaseIterable {
  /// Sanitized and with relative URIs resolved: safe to put in a page as it is (the default).
  case safe
  /// The markup exactly as the feed gives it (entities decoded once, CDATA unwrapped): for a
  /// consumer that sanitizes with its own rules.
  case raw
  /// Rendered as plain text (elements removed, references decoded, blocks as line breaks);
  /// the field's type becomes `text/plain`.
  case text
}

/// Applies an `HTMLMode` to the fields of one document: the parser's one door to the
/// sanitizer and the text renderer. Bytes in, bytes out, with the base that relative URIs
/// resolve against; a field that is not HTML, or needs no change, costs a type test and one
/// scan. Holds the sanitizer's and renderer's buffers from field to field; one per document,
/// used from the parse's thread.
struct HTMLFieldTreatment {
  let mode: HTMLMode
  private var sanitizer: HTMLSanitizer?
  private var renderer: HTMLTextRenderer?

  init(_ mode: HTMLMode) {
    self.mode = mode
  }

  /// True for the types whose text is HTML markup.
  static func isHTML(_ type: String?) -> Bool {
    type == "text/html" || type == "application/xhtml+xml"
  }

  /// The field's new text (nil: keep `text` as it is) and type, for text of `type` whose
  /// relative URIs resolve against `base`.
  mutating func apply(_ text: UnsafeBufferPointer<UInt8>, type: String?, base: String?)
    -> (text: [UInt8]?, type: String?)
  {
    guard mode != .raw, Self.isHTML(type) else { return (nil, type) }
    switch mode {
    case .safe:
      if sanitizer == nil { sanitizer = HTMLSanitizer() }
      let flavour: HTMLSanitizer.Flavour = type == "text/html" ? .html : .xhtml
      return (sanitizer!.sanitize(text, base: base, flavour: flavour), type)
    case .text:
      if renderer == nil { renderer = HTMLTextRenderer() }
      return (renderer!.render(text), "text/plain")
    case .raw:
      return (nil, type)
    }
  }

  /// `body` with the field's text after the treatment and its type: the text is lent (the
  /// sanitizer's or the renderer's buffer, valid only during the call; `text` itself when the
  /// treatment leaves it as it is), so that the builder copies it once, into the record.
  mutating func withApplied<Result>(
    _ text: UnsafeBufferPointer<UInt8>, type: TextType?, base: String?,
    _ body: (UnsafeBufferPointer<UInt8>, TextType?) -> Result
  ) -> Result {
    guard mode != .raw, type == .html || type == .xhtml else { return body(text, type) }
    switch mode {
    case .safe:
      if sanitizer == nil { sanitizer = HTMLSanitizer() }
      let flavour: HTMLSanitizer.Flavour = type == .html ? .html : .xhtml
      return sanitizer!.withSanitized(text, base: base, flavour: flavour) {
        body($0 ?? text, type)
      }
    case .text:
      if renderer == nil { renderer = HTMLTextRenderer() }
      return renderer!.withRendered(text) { body($0, .plain) }
    case .raw:
      return body(text, type)
    }
  }

  /// `apply` for a field kept as a `String` (titles, a feed's description, rights).
  mutating func apply(_ text: String, type: String?, base: String?) -> (text: String, type: String?)
  {
    guard mode != .raw, Self.isHTML(type) else { return (text, type) }
    var text = text
    let (changed, newType) = text.withUTF8 { apply($0, type: type, base: base) }
    return (changed.map { String(decoding: $0, as: UTF8.self) } ?? text, newType)
  }

  /// `apply` for an item's summary or content, kept as UTF-8 bytes.
  mutating func apply(_ bytes: [UInt8], type: String?, base: String?) -> (
    text: [UInt8], type: String?
  ) {
    guard mode != .raw, Self.isHTML(type) else { return (bytes, type) }
    let (changed, newType) = bytes.withUnsafeBufferPointer { apply($0, type: type, base: base) }
    return (changed ?? bytes, newType)
  }
}

/// The plain text of HTML markup, as `--html text` writes it: for a program that shows a
/// feed's HTML fields on a terminal or in a notification (`TerminalText` in the FeedPull
/// library renders a field by its type with it).
public enum HTMLPlainText {
  /// `html` rendered as plain text: tags removed, character references decoded, the text of
  /// `script`, `style` and the like dropped, block elements as line breaks, white space runs
  /// folded, trimmed.
  public static func render(_ html: String) -> String {
    var renderer = HTMLTextRenderer()
    var html = html
    let bytes = html.withUTF8 { renderer.render($0) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
