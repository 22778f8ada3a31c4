/// A location as a GeoJSON geometry, from GeoRSS (simple or GML) or W3C geo: maps and
/// location-aware readers take GeoJSON as it is.
public struct GeoGeometry: Sendable, Equatable {
  /// GeoJSON's geometry kinds, and GeoRSS's box (two corners), which GeoJSON has no type for.
  public enum Kind: String, Sendable {
    /// One position (`georss:point`, `geo:lat`/`geo:long`, `gml:Point`).
    case point = "Point"
    /// A path of two or more positions (`georss:line`, `gml:LineString`).
    case lineString = "LineString"
    /// A closed ring (`georss:polygon`, `gml:Polygon`'s exterior).
    case polygon = "Polygon"
    /// Two corners, south-west then north-east (`georss:box`, `gml:Envelope`); not a GeoJSON type.
    case box = "Box"
  }
  /// [longitude, latitude] or [longitude, latitude, elevation].
  public typealias Position = [Double]

  /// Which shape `positions` describes; written as GeoJSON's `type`.
  public var kind: Kind
  /// One position for a point, the corners for a box, the path for a line, the ring (closed:
  /// the first position again at its end) for a polygon.
  public var positions: [Position]

  /// A geometry; positions are in GeoJSON order (longitude first), whatever order the feed used.
  public init(kind: Kind, positions: [Position]) {
    self.kind = kind
    self.positions = positions
  }
}
