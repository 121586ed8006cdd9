import TesseraGL
import TesseraNumbers

/// The pipeline of collision debug circles (the `collision_circle` program, instanced): each a
/// ring on the circle's edge, blue at half strength where its label was placed and red where
/// it was not, as MapLibre Native's collision debug draws the circles of labels along lines.
struct CollisionCirclePipeline: PipelineVariant {
  /// Floats per circle: centre x, y, radius and stroke width (points), then a premultiplied
  /// colour.
  static let floatsPerCircle = 8

  static let viewport = UniformSlot<SIMD2<Float>>("u_viewport")

  var descriptor: PipelineDescriptor {
    PipelineDescriptor(
      program: "collision_circle", defines: [:],
      layout: VertexLayout(
        buffers: [
          VertexBufferLayout(stride: 8),
          VertexBufferLayout(stride: CollisionCirclePipeline.floatsPerCircle * 4, stepRate: .perInstance),
        ],
        attributes: [
          VertexAttribute("a_corner", .float2, buffer: 0),
          VertexAttribute("a_circle", .float4, buffer: 1, offset: 0),
          VertexAttribute("a_color", .float4, buffer: 1, offset: 16),
        ]),
      primitive: .triangleStrip, label: description)
  }

  var description: String { "collision circles" }

  /// The instances of a label's circles (those carrying a radius), `stroke` points wide.
  static func instances(_ boxes: [CollisionGrid.Box], stroke: Double, placed: Bool) -> [Float] {
    // MapLibre's colours at its alpha of 0.5: blue (0, 0, 1, 0.5) when placed, red otherwise.
    let color: SIMD4<Float> = placed ? SIMD4(0, 0, 0.5, 0.25) : SIMD4(0.5, 0, 0, 0.5)
    var floats: [Float] = []
    for box in boxes {
      guard let radius = box.radius else { continue }
      floats += [
        Float((box.minX + box.maxX) / 2), Float((box.minY + box.maxY) / 2), Float(radius), Float(stroke),
        color.x, color.y, color.z, color.w,
      ]
    }
    return floats
  }
}
