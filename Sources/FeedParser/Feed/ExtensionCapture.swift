/// An element of a namespace that no field maps, read whole (text, attributes, children) into
/// `FeedExtensions`, so that nothing a feed says is lost. Bounded: at most `budget` bytes of
/// names, attribute values and text per record; past that the rest is dropped (and the record
/// says so), so that a megabyte of extension markup cannot grow a record without limit.
struct ExtensionCapture {
  /// The extension text one record may keep.
  static let recordBound = 64 * 1024
  /// Elements nested deeper than this inside one extension element are not written as
  /// children: their text goes into the value of the deepest one kept (and the record says it
  /// was truncated). Each level is four levels of JSON (the element's object, `children`, the
  /// namespace, the name's array) below the record's `extensions` and namespace and name:
  /// fifteen keeps a record within 64 levels, which every JSON reader takes (jq 1.6 refuses
  /// past 256, Python's `json` past about 1,000).
  static let maxNesting = 15

  /// Depth of the outermost element (the root is 1).
  let depth: Int
  private var open: [(uri: String, name: String, element: FeedExtensions.Element, text: [UInt8])] =
    []
  /// Open elements past the bound: read and dropped.
  private var droppedDepth = 0
  /// Open elements past `maxNesting`: their text is their ancestor's.
  private var foldedDepth = 0
  private(set) var budget: Int
  private(set) var truncated = false

  init(
    uri: String, localname: UnsafePointer<UInt8>, attributes: XMLAttributes, depth: Int,
    budget: Int
  ) {
    self.depth = depth
    self.budget = budget
    startElement(uri: uri, localname: localname, attributes: attributes)
  }

  /// A child element starts.
  mutating func startElement(
    uri: String?, localname: UnsafePointer<UInt8>, attributes: XMLAttributes
  ) {
    if droppedDepth == 0 && (foldedDepth > 0 || open.count >= Self.maxNesting) {
      foldedDepth += 1
      truncated = true
      return
    }
    let name = String(cString: localname)
    var cost = name.utf8.count
    var element = FeedExtensions.Element()
    for attribute in attributes.all() {
      element.attributes.append(attribute)
      cost += attribute.name.utf8.count + attribute.value.utf8.count
    }
    guard droppedDepth == 0, cost <= budget else {
      truncated = true
      droppedDepth += 1
      return
    }
    budget -= cost
    open.append((uri ?? "", name, element, []))
  }

  mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard droppedDepth == 0, !open.isEmpty else { return }
    var count = bytes.count
    if count > budget {
      truncated = true
      count = budget
      // Cut before a UTF-8 sequence that would not fit whole.
      while count > 0 && count < bytes.count && bytes[count] & 0xC0 == 0x80 { count -= 1 }
    }
    guard count > 0 else { return }
    open[open.count - 1].text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<count]))
    budget -= count
  }

  /// The innermost open element ends; returns the outermost one when it is the one ending.
  mutating func endElement() -> (uri: String, name: String, element: FeedExtensions.Element)? {
    if droppedDepth > 0 {
      droppedDepth -= 1
      return nil
    }
    if foldedDepth > 0 {
      foldedDepth -= 1
      return nil
    }
    guard var last = open.popLast() else { return nil }
    let value = String(decoding: last.text, as: UTF8.self).trimmingSpaces()
    last.element.value = value.isEmpty ? nil : value
    if open.isEmpty { return (last.uri, last.name, last.element) }
    open[open.count - 1].element.children.append(last.element, namespace: last.uri, name: last.name)
    return nil
  }
}
