/// The elements of GeoRSS (simple and GML) and W3C geo that a field names.
enum GeoElement: UInt8 {
  case point, line, polygon, box, elevation, whereContainer
  case gmlPoint, gmlLineString, gmlPolygon, gmlEnvelope, gmlPos, gmlPosList, gmlLowerCorner
  case gmlUpperCorner
  case w3cLatitude, w3cLongitude
}

/// GeoRSS and W3C geo into a GeoJSON geometry, positions as [longitude, latitude(, elevation)].
/// GeoRSS writes latitude first; GML does too in the latitude/longitude systems GeoRSS uses,
/// and keeps its axes as written in any other (as feedparser does). GML counts only inside
/// `georss:where`.
enum GeoReader {
  static let geoRSSRows: [(String, FieldRoute)] = [
    ("point", .geo(.point)), ("line", .geo(.line)), ("polygon", .geo(.polygon)),
    ("box", .geo(.box)), ("elev", .geo(.elevation)), ("where", .geo(.whereContainer)),
  ]
  static let gmlRows: [(String, FieldRoute)] = [
    ("Point", .geo(.gmlPoint)), ("LineString", .geo(.gmlLineString)),
    ("Polygon", .geo(.gmlPolygon)), ("Envelope", .geo(.gmlEnvelope)), ("pos", .geo(.gmlPos)),
    ("posList", .geo(.gmlPosList)), ("lowerCorner", .geo(.gmlLowerCorner)),
    ("upperCorner", .geo(.gmlUpperCorner)),
    // Rings are containers of the polygon's position list.
    ("exterior", .geo(.gmlPolygon)), ("LinearRing", .geo(.gmlPolygon)),
  ]
  static let w3cRows: [(String, FieldRoute)] = [
    ("lat", .geo(.w3cLatitude)), ("long", .geo(.w3cLongitude)),
    ("Point", .geo(.whereContainer)),
  ]

  static func start(
    _ element: GeoElement, _ attributes: XMLAttributes, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    switch element {
    case .whereContainer:
      if scope.whereDepth == nil { scope.whereDepth = scope.depth }
      return .children
    case .gmlPoint, .gmlLineString, .gmlPolygon, .gmlEnvelope:
      guard scope.whereDepth != nil else { return .ignore }
      if scope.gml.kind == nil || element != .gmlPolygon {
        var draft = GMLDraft()
        switch element {
        case .gmlPoint: draft.kind = .point
        case .gmlLineString: draft.kind = .lineString
        case .gmlEnvelope: draft.kind = .box
        default: draft.kind = .polygon
        }
        if let name = attributes.value("srsName") { draft.latitudeFirst = isLatitudeFirst(name) }
        if let dimension = attributes.value("srsDimension").flatMap({ Int($0.trimmingSpaces()) }),
          (2...3).contains(dimension)
        {
          draft.dimension = dimension
        }
        scope.gml = draft
      }
      return .children
    case .gmlPos, .gmlPosList, .gmlLowerCorner, .gmlUpperCorner:
      if let dimension = attributes.value("srsDimension").flatMap({ Int($0.trimmingSpaces()) }),
        (2...3).contains(dimension)
      {
        scope.gml.dimension = dimension
      }
      return scope.whereDepth != nil && scope.gml.kind != nil ? .text(type: nil) : .ignore
    default:
      return .text(type: nil)
    }
  }

  static func text(
    _ element: GeoElement, _ bytes: UnsafeBufferPointer<UInt8>, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) {
    let text = String(decoding: bytes, as: UTF8.self)
    let numbers = text.split(whereSeparator: { $0 == " " || $0 == "," || $0.isWhitespace })
      .map { Double($0) }
    guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else { return }
    let values = numbers.map { $0! }
    switch element {
    case .point, .line, .polygon, .box:
      guard record.geo == nil, values.count % 2 == 0 else { return }
      let positions = stride(from: 0, to: values.count, by: 2).map { [values[$0 + 1], values[$0]] }
      let kind: GeoGeometry.Kind
      switch element {
      case .point: kind = .point
      case .line: kind = .lineString
      case .polygon: kind = .polygon
      default: kind = .box
      }
      let expected = kind == .point ? 1 : kind == .box ? 2 : nil
      if let expected, positions.count != expected { return }
      record.setGeo(GeoGeometry(kind: kind, positions: positions))
    case .elevation:
      guard values.count == 1, var geo = record.geo else { return }
      geo.positions = geo.positions.map { $0.count == 2 ? $0 + [values[0]] : $0 }
      record.setGeo(geo)
    case .gmlPos, .gmlPosList, .gmlLowerCorner, .gmlUpperCorner:
      guard record.geo == nil, let kind = scope.gml.kind else { return }
      let size = scope.gml.dimension
      guard values.count % size == 0 else { return }
      let positions = stride(from: 0, to: values.count, by: size).map { index in
        let tuple = Array(values[index..<index + size])
        return scope.gml.latitudeFirst ? [tuple[1], tuple[0]] + tuple.dropFirst(2) : tuple
      }
      switch element {
      case .gmlLowerCorner:
        scope.gml.lowerCorner = positions.first
        return
      case .gmlUpperCorner:
        guard let lower = scope.gml.lowerCorner, let upper = positions.first else { return }
        record.setGeo(GeoGeometry(kind: .box, positions: [lower, upper]))
      default:
        if kind == .point && positions.count != 1 { return }
        record.setGeo(GeoGeometry(kind: kind, positions: positions))
      }
    case .w3cLatitude, .w3cLongitude:
      guard values.count == 1 else { return }
      if element == .w3cLatitude {
        scope.w3cPoint.latitude = values[0]
      } else {
        scope.w3cPoint.longitude = values[0]
      }
      if record.geo == nil, let latitude = scope.w3cPoint.latitude,
        let longitude = scope.w3cPoint.longitude
      {
        record.setGeo(GeoGeometry(kind: .point, positions: [[longitude, latitude]]))
      }
    default:
      break
    }
  }

  /// EPSG 4326 (WGS 84), 4979 (its 3D form) and 4258 (ETRS89) list latitude first, as does
  /// GeoRSS's default; a projected system (`EPSG:26913`, UTM) keeps its axes as written.
  static func isLatitudeFirst(_ srsName: String) -> Bool {
    let name = srsName.lowercased()
    return name.hasSuffix(":4326") || name.hasSuffix(":4979") || name.hasSuffix(":4258")
      || name.hasSuffix("#4326") || name.hasSuffix("/4326") || name.isEmpty
  }
}
