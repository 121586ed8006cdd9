import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// Round dots of a fixed pixel radius at coordinates, drawn in one instanced call above the
/// map. Positions are sent relative to the camera target, so they stay exact at any zoom.
package struct PointsLayer: FrameLayer, Sendable {
  /// One dot.
  package struct Point: Sendable, Equatable {
    package var coordinate: Coordinate
    package var color: Color

    package init(_ coordinate: Coordinate, color: Color) {
      self.coordinate = coordinate
      self.color = color
    }
  }

  /// Bytes per instance: x, y as Float32, then RGBA8 premultiplied.
  static let instanceStride = 12

  package var points: [Point]
  /// Radius in points (multiplied by the view's scale for pixels).
  package var radius: Double

  package init(points: [Point], radius: Double = 4) {
    self.points = points
    self.radius = radius
  }

  /// The dots' pipeline: instanced quads (the `points` program).
  package struct PointsPipeline: PipelineVariant {
    package init() {}

    package var descriptor: PipelineDescriptor {
      PipelineDescriptor(
        program: "points",
        layout: VertexLayout(
          buffers: [
            VertexBufferLayout(stride: 8),
            VertexBufferLayout(stride: PointsLayer.instanceStride, stepRate: .perInstance),
          ],
          attributes: [
            VertexAttribute("a_corner", .float2, buffer: 0),
            VertexAttribute("a_position", .float2, buffer: 1, offset: 0),
            VertexAttribute("a_color", .ubyte4Normalized, buffer: 1, offset: 8),
          ]),
        primitive: .triangleStrip, label: "points")
    }

    package var description: String { "points" }
  }

  static let matrix = UniformSlot<Mat4>("u_matrix")
  static let pixelToClip = UniformSlot<SIMD2<Float>>("u_pixel_to_clip")
  static let radius = UniformSlot<Float>("u_radius")

  /// The dots' draw, when there are any.
  package func addDraws(to frame: inout FrameBuilder) {
    guard !points.isEmpty else { return }
    let transform = frame.transform
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
    var uniforms = UniformValues()
    uniforms.set(PointsLayer.matrix, transform.clipMatrix(origin: transform.targetWorld, unitsToPoints: 1))
    uniforms.set(
      PointsLayer.pixelToClip,
      SIMD2(Float(2.0 / Double(viewport.pixelWidth)), Float(2.0 / Double(viewport.pixelHeight))))
    uniforms.set(PointsLayer.radius, Float(radius * viewport.scale))
    frame.draw(
      .overlay, Pipeline(PointsPipeline()), .instanced(.quadCorners, InstanceData(bytes: bytes, count: points.count)),
      uniforms, instances: points.count)
  }
}
