/// Elements of namespaces that no field maps (and the unmapped elements of those it does), so
/// that nothing a feed says is lost: keyed by namespace URI, then by local name, in the order
/// they first appear.
public struct FeedExtensions: Sendable, Equatable {
  /// One element: its trimmed text, its attributes by qualified name, and its child elements in
  /// the same shape.
  public struct Element: Sendable, Equatable {
    /// The element's text, trimmed; nil when it has none (only attributes or children).
    public var value: String?
    /// The element's attributes by qualified name (`x:kind`), in document order.
    public var attributes: [(name: String, value: String)] = []
    /// The element's child elements, keyed like the top level (namespace URI, then local name).
    public var children = FeedExtensions()
    /// An element with its text; attributes and children are added after.
    public init(value: String? = nil) { self.value = value }

    /// Equal when text, attributes (in order) and children are; tuples are not `Equatable`, hence
    /// written out.
    public static func == (lhs: Element, rhs: Element) -> Bool {
      lhs.value == rhs.value && lhs.children == rhs.children
        && lhs.attributes.elementsEqual(rhs.attributes) { $0 == $1 }
    }
  }

  /// The elements of one namespace, by local name in order of first appearance.
  public struct Namespace: Sendable, Equatable {
    /// The namespace URI, exactly as the document declares it.
    public var uri: String
    /// Each local name with its elements, in document order.
    public var elements: [(name: String, values: [Element])] = []
    /// An empty namespace entry for `uri`.
    public init(uri: String) { self.uri = uri }

    /// Equal when the URI and the elements, in order, are.
    public static func == (lhs: Namespace, rhs: Namespace) -> Bool {
      lhs.uri == rhs.uri
        && lhs.elements.elementsEqual(rhs.elements) { $0.name == $1.name && $0.values == $1.values }
    }
  }

  /// Each namespace met, in order of first appearance.
  public var namespaces: [Namespace] = []
  /// No extension elements.
  public init() {}

  /// True when no element was kept: writers leave `extensions` out.
  public var isEmpty: Bool { namespaces.isEmpty }

  /// Adds `element` under its namespace and name, after the others of that name.
  public mutating func append(_ element: Element, namespace uri: String, name: String) {
    let namespaceIndex: Int
    if let found = namespaces.firstIndex(where: { $0.uri == uri }) {
      namespaceIndex = found
    } else {
      namespaces.append(Namespace(uri: uri))
      namespaceIndex = namespaces.count - 1
    }
    if let found = namespaces[namespaceIndex].elements.firstIndex(where: { $0.name == name }) {
      namespaces[namespaceIndex].elements[found].values.append(element)
    } else {
      namespaces[namespaceIndex].elements.append((name, [element]))
    }
  }
}
