/// A location as a GeoJSON geometry, from GeoRSS (simple or GML) or W3C geo: maps and
/// location-aware readers take GeoJSON as it is.
public struct GeoGeometry: Sendable, Equatable {
  /// GeoJSON's geometry kinds, and GeoRSS's box (two corners), which GeoJSON has no type for.
  public enum Kind: String, Sendable {
    case point = "Point"
    case lineString = "LineString"
    case polygon = "Polygon"
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
