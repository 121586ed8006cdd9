import TesseraNumbers

/// A run of consecutive indices of a mesh with the bounding box of the vertex positions they
/// use, in the mesh's tile units. Consecutive primitives come from the same or neighbouring
/// features, so the boxes are tight and a draw can skip the runs outside the view.
struct MeshChunk: Sendable, Equatable {
  /// First index of the run and how many indices it has.
  let first: Int
  let count: Int
  let minX: Float
  let minY: Float
  let maxX: Float
  let maxY: Float
}

/// Splitting meshes into ``MeshChunk``s and choosing the ones a view can see.
enum MeshChunks {
  /// Indices per chunk: 128 triangles or 192 lines, a multiple of both 2 and 3 so chunks never
  /// split a primitive.
  static let indicesPerChunk = 96
  /// Hidden runs up to this many indices between visible ones are drawn anyway: another draw
  /// call costs llvmpipe more than shading that many vertices.
  static let maxSkippedIndices = 288

  /// The chunks of `mesh`'s indices.
  static func build(_ mesh: MeshGeometry) -> [MeshChunk] {
    build(vertices: mesh.vertices, floatsPerVertex: mesh.floatsPerVertex, indices: mesh.indices)
  }

  /// Chunks of `indices`, positions read as the first two floats of each vertex of
  /// `floatsPerVertex` floats.
  static func build(vertices: [Float], floatsPerVertex: Int, indices: [UInt32]) -> [MeshChunk] {
    var chunks: [MeshChunk] = []
    chunks.reserveCapacity((indices.count + indicesPerChunk - 1) / indicesPerChunk)
    vertices.withUnsafeBufferPointer { positions in
      indices.withUnsafeBufferPointer { indices in
        var start = 0
        while start < indices.count {
          let end = min(start + indicesPerChunk, indices.count)
          var minX = Float.infinity
          var minY = Float.infinity
          var maxX = -Float.infinity
          var maxY = -Float.infinity
          for position in start..<end {
            let vertex = Int(indices[position]) * floatsPerVertex
            let x = positions[vertex]
            let y = positions[vertex + 1]
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, y)
            maxY = max(maxY, y)
          }
          chunks.append(MeshChunk(first: start, count: end - start, minX: minX, minY: minY, maxX: maxX, maxY: maxY))
          start = end
        }
      }
    }
    return chunks
  }

  /// The index ranges to draw: chunks whose box, grown by `margin` tile units and standing
  /// `height` high (the matrix's z units; 0 for flat meshes), may show through `matrix`
  /// (column-major, tile units to clip space), with visible chunks joined
  /// across gaps of at most ``maxSkippedIndices``. A box is dropped only when all four corners lie in front of the
  /// camera and beyond one side of the clip volume widened by `clipMargin` (a fraction of the
  /// half-width), so the test never drops anything that could be drawn.
  static func visibleRanges(
    _ chunks: [MeshChunk], matrix: [Float], margin: Float, height: Float = 0, clipMargin: (x: Float, y: Float)
  ) -> [(first: Int, count: Int)] {
    guard matrix.count == 16 else { return chunks.isEmpty ? [] : [(0, chunks.last!.first + chunks.last!.count)] }
    var ranges: [(first: Int, count: Int)] = []
    let limitX = 1 + clipMargin.x
    let limitY = 1 + clipMargin.y
    let heights: [Float] = height > 0 ? [0, height] : [0]
    for chunk in chunks {
      let xs = (chunk.minX - margin, chunk.maxX + margin)
      let ys = (chunk.minY - margin, chunk.maxY + margin)
      var left = true
      var right = true
      var below = true
      var above = true
      for z in heights {
        for (x, y) in [(xs.0, ys.0), (xs.1, ys.0), (xs.0, ys.1), (xs.1, ys.1)] {
          let clipX = matrix[0] * x + matrix[4] * y + matrix[8] * z + matrix[12]
          let clipY = matrix[1] * x + matrix[5] * y + matrix[9] * z + matrix[13]
          let w = matrix[3] * x + matrix[7] * y + matrix[11] * z + matrix[15]
          guard w > 1e-6 else {
            // Behind the camera: the projection folds over, so keep the chunk.
            left = false
            right = false
            below = false
            above = false
            break
          }
          left = left && clipX < -limitX * w
          right = right && clipX > limitX * w
          below = below && clipY < -limitY * w
          above = above && clipY > limitY * w
        }
      }
      guard !(left || right || below || above) else { continue }
      if let last = ranges.last, chunk.first - (last.first + last.count) <= maxSkippedIndices {
        ranges[ranges.count - 1].count = chunk.first + chunk.count - last.first
      } else {
        ranges.append((chunk.first, chunk.count))
      }
    }
    return ranges
  }
}
