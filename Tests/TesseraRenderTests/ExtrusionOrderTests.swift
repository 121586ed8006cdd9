import TesseraData
import TesseraStyle
import Testing

@testable import TesseraRender

/// Extrusion buckets hold their buildings in Z order of where they stand, so the runs of a
/// mesh a view skips are compact.
@Suite struct ExtrusionOrderTests {
  @Test func mortonCodesInterleaveTheBits() {
    #expect(FillExtrusionBucketBuilder.morton(0, 0) == 0)
    #expect(FillExtrusionBucketBuilder.morton(1, 0) == 1)
    #expect(FillExtrusionBucketBuilder.morton(0, 1) == 2)
    #expect(FillExtrusionBucketBuilder.morton(3, 3) == 15)
    #expect(FillExtrusionBucketBuilder.morton(0xFFFF, 0xFFFF) == UInt32.max)
  }

  /// 256 buildings on a 16 × 16 grid, listed in a scattered order as tiles list them: the
  /// mesh's runs that reach the tile's north-west quarter hold about a quarter of its indices.
  @Test func aQuarterOfTheTileIsAboutAQuarterOfTheMesh() throws {
    var features: [VectorFeature] = []
    for step in 0..<256 {
      let index = (step * 37) % 256
      let x = Int32(index % 16) * 256 + 64
      let y = Int32(index / 16) * 256 + 64
      let ring = [(x, y), (x + 128, y), (x + 128, y + 128), (x, y + 128), (x, y)].map { TilePoint(x: $0.0, y: $0.1) }
      features.append(VectorFeature(id: UInt64(index), type: .polygon, geometry: [ring]))
    }
    let tile = VectorTile(layers: [VectorTileLayer(name: "building", features: features)])
    let style = try Style.parse(
      Array(
        #"""
        {"version": 8, "sources": {"v": {"type": "vector", "tiles": ["x/{z}/{x}/{y}"]}},
         "layers": [{"id": "b", "type": "fill-extrusion", "source": "v", "source-layer": "building",
                     "paint": {"fill-extrusion-height": 20}}]}
        """#.utf8))
    let geometry = FillExtrusionBucketBuilder.build(tile, layer: style.layers[0], zoom: 14)
    let mesh = geometry.main
    #expect(mesh.indices.count == 256 * (4 * 6 + 6))
    let chunks = MeshChunks.build(
      vertices: mesh.vertices, floatsPerVertex: mesh.floatsPerVertex, indices: mesh.indices)
    let half = Float(BucketGeometry.extent / 2)
    let reaching = chunks.filter { $0.minX < half && $0.minY < half }.reduce(0) { $0 + $1.count }
    #expect(Double(reaching) < 0.3 * Double(mesh.indices.count))
  }
}
