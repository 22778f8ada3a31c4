/// What kind of text a field is (`title_type`, `summary_type`, `content_type`, `media`'s
/// types): a MIME type, kept as a case for the three nearly every feed uses, so that carrying it
/// from an element's start to its field costs no string; another MIME type an Atom element
/// names is kept as given.
enum TextType: Equatable {
  case plain
  case html
  case xhtml
  case other(String)

  /// `mimeType` as a case when it is one of the three.
  init(mimeType: String) {
    switch mimeType {
    case "text/plain": self = .plain
    case "text/html": self = .html
    case "application/xhtml+xml": self = .xhtml
    default: self = .other(mimeType)
    }
  }

  /// The MIME type.
  var mimeType: String {
    switch self {
    case .plain: "text/plain"
    case .html: "text/html"
    case .xhtml: "application/xhtml+xml"
    case .other(let type): type
    }
  }

  /// Stores the MIME type in the slot at `index`.
  func store(in storage: RecordStorage, at index: Int) {
    switch self {
    case .plain: storage.setText(StaticString("text/plain").bytes, at: index)
    case .html: storage.setText(StaticString("text/html").bytes, at: index)
    case .xhtml: storage.setText(StaticString("application/xhtml+xml").bytes, at: index)
    case .other(let type): storage.setText(type, at: index)
    }
  }
}

extension RecordStorage {
  /// Sets a type field to `type`, or empties it for nil.
  @inline(__always)
  func setType<S>(_ block: Block<S>, _ field: KeyPath<S, Field<String>>, _ type: TextType?) {
    if let type {
      type.store(in: self, at: block.slot(field))
    } else {
      clear(at: block.slot(field))
    }
  }
}

extension HTMLFieldTreatment {
  /// `apply` for a field's bytes and `TextType`: nil text when the field stays as it is (any
  /// field under `--html raw`, one that is not HTML).
  mutating func apply(_ text: UnsafeBufferPointer<UInt8>, type: TextType?, base: String?)
    -> (text: [UInt8]?, type: TextType?)
  {
    guard mode != .raw, type == .html || type == .xhtml else { return (nil, type) }
    let (changed, newType) = apply(text, type: type?.mimeType, base: base)
    return (changed, newType.map(TextType.init(mimeType:)))
  }
}
