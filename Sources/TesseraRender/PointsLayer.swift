import TesseraGeo
import TesseraImage

/// Round dots of a fixed pixel radius at coordinates, drawn in one instanced call. Positions are
/// sent relative to the camera target, so they stay exact at any zoom.
public struct PointsLayer: Sendable {
  /// One dot.
  public struct Point: Sendable, Equatable {
    public var coordinate: Coordinate
    public var color: Color

    public init(_ coordinate: Coordinate, color: Color) {
      self.coordinate = coordinate
      self.color = color
    }
  }

  /// Bytes per instance: x, y as Float32, then RGBA8 premultiplied.
  static let instanceStride = 12

  public var points: [Point]
  /// Radius in points (multiplied by the view's scale for pixels).
  public var radius: Double

  public init(points: [Point], radius: Double = 4) {
    self.points = points
    self.radius = radius
  }

  /// The draw command for `transform`, or nil when there are no points.
  public func command(for transform: CameraTransform, layer: Int) -> DrawCommand? {
    guard !points.isEmpty else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(points.count * PointsLayer.instanceStride)
    for point in points {
      let world = Mercator.project(point.coordinate, worldSize: transform.worldSize)
      let (dx, dy) = transform.offsetFromTarget(world)
      withUnsafeBytes(of: Float(dx)) { bytes += $0 }
      withUnsafeBytes(of: Float(dy)) { bytes += $0 }
      let rgba = Color(
        red: point.color.red * point.color.alpha, green: point.color.green * point.color.alpha,
        blue: point.color.blue * point.color.alpha, alpha: point.color.alpha
      ).rgba8
      bytes += [rgba.0, rgba.1, rgba.2, rgba.3]
    }
    let viewport = transform.viewport
    return DrawCommand(
      key: SortKey(pass: .overlay, layer: layer, order: 0), pipeline: .points,
      mesh: .instanced(.quadCorners, InstanceData(bytes: bytes, count: points.count)),
      uniforms: [
        ("u_matrix", .mat4(transform.clipMatrix(origin: transform.targetWorld, unitsToPoints: 1).floats)),
        ("u_pixel_to_clip", .vec2(Float(2.0 / Double(viewport.pixelWidth)), Float(2.0 / Double(viewport.pixelHeight)))),
        ("u_radius", .float(Float(radius * viewport.scale))),
      ],
      instances: points.count)
  }
}
