import TesseraGL
import TesseraNumbers

/// Vertex data of the built-in meshes (floats, drawn as the pipeline's primitive).
enum BuiltinMeshData {
  /// Floats per vertex of each mesh.
  static func floatsPerVertex(_ mesh: BuiltinMesh) -> Int {
    switch mesh {
    case .unitSquare, .unitSquareRing: return 3
    case .fullScreenTriangle, .quadCorners, .unitQuadStrip: return 2
    }
  }

  /// The vertices of a mesh.
  static func vertices(_ mesh: BuiltinMesh) -> [Float] {
    switch mesh {
    case .unitSquare:
      // (x, y, inner) for `debug_grid`.
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
    case .fullScreenTriangle:
      return [-1, -1, 3, -1, -1, 3]
    case .quadCorners:
      return [-1, -1, 1, -1, -1, 1, 1, 1]
    case .unitQuadStrip:
      return [0, 0, 1, 0, 0, 1, 1, 1]
    }
  }
}
