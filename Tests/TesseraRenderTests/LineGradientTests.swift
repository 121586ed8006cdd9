import Foundation
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraStyle
import Testing

@testable import TesseraRender

/// `line-gradient`: GeoJSON line metrics, progress along lines and the colour ramp.
@Suite struct LineGradientTests {
  static let line = try! JSONParser.parse(
    #"{"type": "Feature", "properties": {"name": "a"}, "geometry": {"type": "LineString", "coordinates": [[-90, 0], [90, 0]]}}"#
  )

  @Test func linePiecesSayWhereTheyLieAlongTheWholeLine() throws {
    let source = try GeoJSONSource(data: LineGradientTests.line, name: "g", lineMetrics: true)
    // At zoom 1 the line runs through the left and right tiles of row 0 (along its bottom
    // edge, inside the buffer), a quarter of the world in each, and each piece reaches the
    // buffer (a quarter of a tile: 45°, a quarter of the line's 180°) beyond the middle.
    func measures(_ tile: TileID) throws -> (Double, Double) {
      let layer = try #require(source.makeTile(tile).layers.first)
      #expect(layer.features.count == 1)
      let feature = TileFeature(layer: layer, feature: layer.features[0])
      #expect(feature.property("name") == .string("a"))
      return (
        try #require(feature.property(GeoJSONSource.clipStartKey)?.number),
        try #require(feature.property(GeoJSONSource.clipEndKey)?.number)
      )
    }
    let left = try measures(TileID(z: 1, x: 0, y: 0))
    #expect(abs(left.0) < 1e-9 && abs(left.1 - 0.75) < 1e-3)
    let right = try measures(TileID(z: 1, x: 1, y: 0))
    #expect(abs(right.0 - 0.25) < 1e-3 && abs(right.1 - 1) < 1e-9)
    // Without line metrics the pieces carry only their own attributes.
    let plain = try GeoJSONSource(data: LineGradientTests.line, name: "g")
    let layer = try #require(plain.makeTile(TileID(z: 1, x: 0, y: 0)).layers.first)
    #expect(TileFeature(layer: layer, feature: layer.features[0]).property(GeoJSONSource.clipStartKey) == nil)
  }

  static func style(_ paint: String, lineMetrics: Bool = true) throws -> Style {
    try Style.parse(
      Array(
        #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "lineMetrics": \#(lineMetrics), "data": \#(LineGradientTests.line.serialized())}},
         "layers": [{"id": "l", "type": "line", "source": "g", "paint": \#(paint)}]}
        """#.utf8))
  }

  @Test func bucketsStoreProgressAlongTheWholeLine() throws {
    let style = try LineGradientTests.style(
      #"{"line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]}"#)
    #expect(style.warnings.isEmpty, "\(style.warnings)")
    #expect(style.sources["g"]?.lineMetrics == true)
    let layer = style.layers[0]
    #expect(LineLayerRenderer.drawsGradient(layer, zoom: 1))
    let source = try GeoJSONSource(data: LineGradientTests.line, name: "g", lineMetrics: true)
    var tile = source.makeTile(TileID(z: 1, x: 1, y: 0))
    tile.tile = TileID(z: 1, x: 1, y: 0)
    let bucket = LineBucketBuilder.build(tile, layer: layer, zoom: 1, overscale: 1)
    let floats = LineTessellator.floatsPerVertex
    let progress = stride(from: floats - 1, to: bucket.main.vertices.count, by: floats).map { bucket.main.vertices[$0] }
    #expect(!progress.isEmpty)
    // The right tile's piece: from a quarter of the line (the buffer) to its end.
    #expect(abs(Double(progress.min()!) - 0.25) < 2e-3)
    #expect(abs(Double(progress.max()!) - 1) < 1e-3)
    // Dashes and patterns take precedence; the ramp runs blue to red.
    let dashed = try LineGradientTests.style(
      #"{"line-dasharray": [2, 1], "line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]}"#
    )
    #expect(!LineLayerRenderer.drawsGradient(dashed.layers[0], zoom: 1))
    let ramp = ColorRamp.texels(layer[LineProperties.gradient]) { $0.lineProgress = $1 }
    #expect(ramp.count == ColorRamp.width * 4)
    #expect(Array(ramp[0..<4]) == [0, 0, 255, 255])
    #expect(Array(ramp[(ColorRamp.width - 1) * 4..<ColorRamp.width * 4]) == [254, 0, 0, 255])
  }
}
