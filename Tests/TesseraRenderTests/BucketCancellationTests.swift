import Foundation
import Synchronization
import TesseraData
import TesseraGeo
import TesseraJSON
import TesseraStyle
import Testing

@testable import TesseraRender

/// Bucket builders stop between features once the render is cancelled, so a cancelled render
/// of a tile with much geometry ends soon after (not after the whole tile's tessellation).
@Suite struct BucketCancellationTests {
  /// A tile of 40 squares (polygons, so that every geometry layer type draws something).
  static func tile() throws -> VectorTile {
    let squares = (0..<40).map { index -> String in
      let x = -100 + Double(index) * 5
      return #"{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": "#
        + "[[[\(x), 0], [\(x + 3), 0], [\(x + 3), 3], [\(x), 3], [\(x), 0]]]}}"
    }
    let collection = #"{"type": "FeatureCollection", "features": ["# + squares.joined(separator: ",") + "]}"
    let data = try JSONParser.parse(collection)
    var tile = try GeoJSONSource(data: data, name: "g").makeTile(TileID(z: 0, x: 0, y: 0))
    tile.tile = TileID(z: 0, x: 0, y: 0)
    return tile
  }

  @Test(arguments: [LayerType.fill, .line, .circle, .fillExtrusion, .heatmap])
  func aCancelledRenderBuildsNoFeature(_ type: LayerType) throws {
    let style = try Style.parse(
      Array(
        #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [{"id": "l", "type": "\#(type.rawValue)", "source": "g"}]}
        """#.utf8))
    let renderer = try #require(StyleLayerRenderers.renderer(for: type))
    let tile = try Self.tile()
    func build(_ cancellation: RenderCancellation?) -> BucketGeometry {
      renderer.buildBucket(
        tile, layer: style.layers[0],
        context: BucketContext(
          zoom: 0, overscale: 1, patterns: .empty, states: FeatureStates(), cancellation: cancellation))
    }
    let running = RenderCancellation()
    #expect(build(nil).main.vertexCount > 0, "nothing drawn: the test would prove nothing")
    #expect(build(running).byteCount == build(nil).byteCount)
    running.cancel()
    #expect(build(running).byteCount == 0)
  }

  @Test func aBucketFinishedWhileTheRenderIsCancelledIsNotKept() throws {
    let cancellation = RenderCancellation()
    let bytes = Atomic<Int>(0)
    var mesh = MeshGeometry(floatsPerVertex: 2)
    mesh.vertices = [0, 0, 1, 1]
    let geometry = BucketGeometry(main: mesh, outline: nil, mask: [])
    // The second layer's build is cancelled while it runs (its bucket may be partial).
    let built = StyleRenderer.buildWhileAllowed([1, 2, 3], cancellation: cancellation, bytes: bytes, limit: 1 << 20) {
      layer in
      if layer == 2 { cancellation.cancel() }
      return geometry
    }
    #expect(built.count == 1)
    #expect(bytes.load(ordering: .relaxed) == geometry.byteCount)
    // Without a cancellation every layer is built, up to the byte limit.
    let unlimited = Atomic<Int>(0)
    let all = StyleRenderer.buildWhileAllowed([1, 2, 3], cancellation: nil, bytes: unlimited, limit: 1 << 20) { _ in
      geometry
    }
    #expect(all.count == 3)
  }
}
