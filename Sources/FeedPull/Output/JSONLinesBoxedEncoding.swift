import FeedParser

/// The two values the table rows do not describe: a GeoJSON geometry, whose coordinates nest
/// as deep as its type says, and the extension elements, whose keys are data.
extension JSONLineBuffer {
  /// `{"type":…,"coordinates":…}`, positions longitude first.
  mutating func writeGeometry(_ geo: GeoGeometry) {
    let hadComma = needsComma
    appendByte(UInt8(ascii: "{"))
    needsComma = false
    field("type", geo.kind.rawValue)
    field(
      "coordinates",
      raw: { buffer in
        func position(_ buffer: inout JSONLineBuffer, _ index: Int) {
          let position = geo.positions[index]
          buffer.appendArray(count: position.count) { $0.appendNumber(position[$1]) }
        }
        switch geo.kind {
        case .point:
          position(&buffer, 0)
        case .lineString, .box:
          buffer.appendArray(count: geo.positions.count, position)
        case .polygon:
          buffer.appendArray(count: 1) { buffer, _ in
            buffer.appendArray(count: geo.positions.count, position)
          }
        }
      })
    appendByte(UInt8(ascii: "}"))
    needsComma = hadComma
  }
}

extension JSONLinesEncoding {
  /// `extensions`' members: namespace URI → local name → [{value, attrs, children}].
  static func extensionElements(_ extensions: FeedExtensions, to object: inout JSONLineBuffer) {
    for namespace in extensions.namespaces {
      object.object(key: namespace.uri) { object in
        for (name, values) in namespace.elements {
          object.objects(key: name, values) { object, element in
            object.field("value", element.value)
            if !element.attributes.isEmpty {
              object.object("attrs") { object in
                for attribute in element.attributes {
                  object.field(key: attribute.name, attribute.value)
                }
              }
            }
            if !element.children.isEmpty {
              object.object("children") { extensionElements(element.children, to: &$0) }
            }
          }
        }
      }
    }
  }
}
