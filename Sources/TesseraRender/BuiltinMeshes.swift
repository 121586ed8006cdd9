import TesseraGL

/// Vertex data of the built-in meshes: (x, y, inner) triples for `debug_grid`.
enum BuiltinMeshData {
  /// The vertex layout of the built-in meshes.
  static let layout = VertexLayout(
    buffers: [VertexBufferLayout(stride: 12)],
    attributes: [VertexAttribute("a_position", .float2, offset: 0), VertexAttribute("a_inner", .float, offset: 8)])

  /// Vertices of a mesh as floats, three per vertex, drawn as triangles.
  static func vertices(_ mesh: BuiltinMesh) -> [Float] {
    switch mesh {
    case .unitSquare:
      return [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0]
    case .unitSquareRing:
      // Four trapezoids between the outer square and the inner one (inner = 1 moves a corner
      // toward the centre by the inset).
      let corners: [(Float, Float)] = [(0, 0), (1, 0), (1, 1), (0, 1)]
      var vertices: [Float] = []
      for side in 0..<4 {
        let a = corners[side]
        let b = corners[(side + 1) % 4]
        let quad: [(Float, Float, Float)] = [
          (a.0, a.1, 0), (b.0, b.1, 0), (b.0, b.1, 1), (a.0, a.1, 0), (b.0, b.1, 1), (a.0, a.1, 1),
        ]
        for vertex in quad { vertices += [vertex.0, vertex.1, vertex.2] }
      }
      return vertices
    }
  }
}
