import Testing

@testable import TesseraRender

@Suite struct MeshChunksTests {
  /// Column-major identity: tile units are clip units, w = 1.
  static let identity: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

  /// `count` triangles, one per unit step along x starting at `x0`, all at y 0...1.
  static func strip(from x0: Float, count: Int) -> (vertices: [Float], indices: [UInt32]) {
    var vertices: [Float] = []
    var indices: [UInt32] = []
    for index in 0..<count {
      let x = x0 + Float(index)
      let base = UInt32(vertices.count / 2)
      vertices += [x, 0, x + 0.5, 0, x, 1]
      indices += [base, base + 1, base + 2]
    }
    return (vertices, indices)
  }

  @Test func chunksCoverEveryIndexWithTheirBoxes() {
    let (vertices, indices) = MeshChunksTests.strip(from: 0, count: 70)
    let chunks = MeshChunks.build(vertices: vertices, floatsPerVertex: 2, indices: indices)
    #expect(chunks.map(\.count).reduce(0, +) == indices.count)
    #expect(chunks.allSatisfy { $0.count % 6 == 0 || $0 == chunks.last })
    let perChunk = MeshChunks.indicesPerChunk / 3
    #expect(
      chunks[0]
        == MeshChunk(
          first: 0, count: MeshChunks.indicesPerChunk, minX: 0, minY: 0, maxX: Float(perChunk - 1) + 0.5, maxY: 1))
    #expect(chunks[1].minX == Float(perChunk))
  }

  @Test func chunksOutsideTheViewAreSkippedAndNeighboursJoined() {
    // 32 triangles per chunk: chunk 0 spans x 0...31.5, chunk 1 x 32...63.5, …
    let (vertices, indices) = MeshChunksTests.strip(from: -0.5, count: 32 * 12)
    let chunks = MeshChunks.build(vertices: vertices, floatsPerVertex: 2, indices: indices)
    // Scale x by 1/32 and shift so chunk 5 spans clip x −0.5 … 0.5.
    var matrix = MeshChunksTests.identity
    matrix[0] = 1 / 32
    matrix[12] = -5.5
    let ranges = MeshChunks.visibleRanges(chunks, matrix: matrix, margin: 0, clipMargin: (0, 0))
    // Chunks 4, 5 and 6 touch the clip square; the rest lie beyond its sides.
    #expect(ranges.count == 1)
    #expect(ranges[0].first == 4 * MeshChunks.indicesPerChunk)
    #expect(ranges[0].count == 3 * MeshChunks.indicesPerChunk)
    // A margin of 40 tile units reaches one more chunk on each side.
    let wider = MeshChunks.visibleRanges(chunks, matrix: matrix, margin: 40, clipMargin: (0, 0))
    #expect(wider[0].first == 3 * MeshChunks.indicesPerChunk && wider[0].count == 5 * MeshChunks.indicesPerChunk)
    // Far below the view: nothing.
    matrix[13] = 10
    #expect(MeshChunks.visibleRanges(chunks, matrix: matrix, margin: 0, clipMargin: (0, 0)).isEmpty)
  }

  @Test func smallGapsAreDrawnRatherThanSplittingTheDraw() {
    // Chunks alternate between x ≈ 0 (in view) and x ≈ 100 (out of view).
    var vertices: [Float] = []
    var indices: [UInt32] = []
    for chunk in 0..<6 {
      let x: Float = chunk.isMultiple(of: 2) ? 0 : 100
      for _ in 0..<(MeshChunks.indicesPerChunk / 3) {
        let base = UInt32(vertices.count / 2)
        vertices += [x, 0, x + 0.1, 0, x, 0.1]
        indices += [base, base + 1, base + 2]
      }
    }
    let chunks = MeshChunks.build(vertices: vertices, floatsPerVertex: 2, indices: indices)
    let ranges = MeshChunks.visibleRanges(chunks, matrix: MeshChunksTests.identity, margin: 0, clipMargin: (0, 0))
    #expect(ranges.count == 1)
    #expect(ranges[0].first == 0 && ranges[0].count == 5 * MeshChunks.indicesPerChunk)
  }

  @Test func boxesBehindTheCameraOrRaisedIntoViewAreKept() {
    let (vertices, indices) = MeshChunksTests.strip(from: 0, count: 32)
    let chunks = MeshChunks.build(vertices: vertices, floatsPerVertex: 2, indices: indices)
    // w = −1 everywhere: behind the camera, so never dropped.
    var behind = MeshChunksTests.identity
    behind[15] = -1
    behind[12] = 50
    #expect(MeshChunks.visibleRanges(chunks, matrix: behind, margin: 0, clipMargin: (0, 0)).count == 1)
    // Footprint below the view (clip y −3 … −2), but z lifts y by 1 per unit: 2.5 units high
    // reach into it.
    var lifted = MeshChunksTests.identity
    lifted[0] = 1 / 64
    lifted[13] = -3
    lifted[9] = 1
    #expect(MeshChunks.visibleRanges(chunks, matrix: lifted, margin: 0, clipMargin: (0, 0)).isEmpty)
    #expect(MeshChunks.visibleRanges(chunks, matrix: lifted, margin: 0, height: 2.5, clipMargin: (0, 0)).count == 1)
  }
}

/// Buckets carry their meshes' chunks from the thread that built them.
@Suite struct BuiltBucketTests {
  @Test func aBuiltBucketCarriesTheChunksOfItsMeshes() {
    let (vertices, indices) = MeshChunksTests.strip(from: 0, count: 70)
    var main = MeshGeometry(floatsPerVertex: 2)
    main.vertices = vertices
    main.indices = indices
    var outline = MeshGeometry(floatsPerVertex: 2)
    outline.vertices = vertices
    outline.indices = Array(indices.prefix(60))
    let built = BuiltBucket(BucketGeometry(main: main, outline: outline, mask: []))
    #expect(built.mainChunks == MeshChunks.build(vertices: vertices, floatsPerVertex: 2, indices: indices))
    #expect(built.outlineChunks == MeshChunks.build(vertices: vertices, floatsPerVertex: 2, indices: outline.indices))
    #expect(built.mainChunks.count > built.outlineChunks.count && !built.outlineChunks.isEmpty)
    #expect(BuiltBucket(BucketGeometry(main: main, outline: nil, mask: [])).outlineChunks.isEmpty)
    #expect(built.byteCount == built.geometry.byteCount)
  }

  /// Devices drawing from host memory read vertices where the indices say, unchecked: a
  /// bucket's mesh must index only vertices it has, with a paint record for each.
  @Test func aMeshIsWellFormedWhenItsIndicesAndPaintFitItsVertices() {
    let (vertices, indices) = MeshChunksTests.strip(from: 0, count: 20)
    var mesh = MeshGeometry(floatsPerVertex: 2)
    mesh.vertices = vertices
    mesh.indices = indices
    #expect(mesh.isWellFormed)
    #expect(MeshGeometry(floatsPerVertex: 2).isWellFormed, "an empty mesh")
    var pastTheEnd = mesh
    pastTheEnd.indices.append(UInt32(mesh.vertexCount))
    #expect(!pastTheEnd.isWellFormed)
    var painted = mesh
    painted.paintStride = 4
    painted.paint = [UInt8](repeating: 7, count: mesh.vertexCount * 4)
    #expect(painted.isWellFormed)
    painted.paint.removeLast()
    #expect(!painted.isWellFormed)
    var ragged = mesh
    ragged.vertices.append(1)
    #expect(!ragged.isWellFormed)
  }
}
