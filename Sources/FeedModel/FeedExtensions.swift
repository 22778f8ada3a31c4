/// Elements of namespaces that no field maps (and the unmapped elements of those it does), so
/// that nothing a feed says is lost: keyed by namespace URI, then by local name, in the order
/// they first appear.
public struct FeedExtensions: Sendable, Equatable {
  /// One element: its trimmed text, its attributes by qualified name, and its child elements in
  /// the same shape.
  public struct Element: Sendable, Equatable {
    public var value: String?
    public var attributes: [(name: String, value: String)] = []
    public var children = FeedExtensions()
    public init(value: String? = nil) { self.value = value }

    public static func == (lhs: Element, rhs: Element) -> Bool {
      lhs.value == rhs.value && lhs.children == rhs.children
        && lhs.attributes.elementsEqual(rhs.attributes) { $0 == $1 }
    }
  }

  /// The elements of one namespace, by local name in order of first appearance.
  public struct Namespace: Sendable, Equatable {
    public var uri: String
    public var elements: [(name: String, values: [Element])] = []
    public init(uri: String) { self.uri = uri }

    public static func == (lhs: Namespace, rhs: Namespace) -> Bool {
      lhs.uri == rhs.uri
        && lhs.elements.elementsEqual(rhs.elements) { $0.name == $1.name && $0.values == $1.values }
    }
  }

  public var namespaces: [Namespace] = []
  public init() {}

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
