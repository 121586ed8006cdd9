import Foundation
import Tessera
import TesseraImage
import TesseraStyle
import Testing

@testable import TesseraRender

/// Heatmap layers: the colour ramp, the density input of expressions, and drawing.
@Suite struct HeatmapTests {
  static func layer(_ paint: String) throws -> StyleLayer {
    let text =
      #"{"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}}, "layers": [{"id": "h", "type": "heatmap", "source": "p", "paint": \#(paint)}]}"#
    return try #require(try Style.parse(Array(text.utf8)).layers.first)
  }

  /// The default ramp runs from transparent through royal blue, cyan, lime and yellow to red,
  /// premultiplied and floored as MapLibre Native fills it.
  @Test func theDefaultRampIsMapLibres() throws {
    let ramp = HeatmapLayerRenderer.colorRamp(try HeatmapTests.layer("{}"))
    #expect(ramp.count == 256 * 4)
    func texel(_ index: Int) -> [UInt8] { Array(ramp[(index * 4)..<(index * 4 + 4)]) }
    #expect(texel(0) == [0, 0, 0, 0])
    // Density 255/256: red but for a trace of yellow.
    #expect(texel(255)[0] == 255 && texel(255)[1] < 5 && texel(255)[2] == 0 && texel(255)[3] == 255)
    #expect(texel(128) == [0, 255, 0, 255], "lime at density 0.5")
    // Royal blue (65, 105, 225) at density 0.1 (texel 25.6: between 25 and 26).
    #expect(texel(26)[2] > 200 && texel(26)[3] == 255)
    // Alpha rises from 0 to 1 over the first tenth.
    #expect(texel(13)[3] > 100 && texel(13)[3] < 160)
  }

  /// An expression of the density is evaluated per texel, never folded into one colour.
  @Test func customRampsFollowTheDensity() throws {
    let layer = try HeatmapTests.layer(
      #"{"heatmap-color": ["step", ["heatmap-density"], "rgba(0, 0, 0, 0)", 0.5, "white"]}"#)
    let ramp = HeatmapLayerRenderer.colorRamp(layer)
    #expect(Array(ramp[0..<4]) == [0, 0, 0, 0])
    #expect(Array(ramp[(127 * 4)..<(128 * 4)]) == [0, 0, 0, 0])
    #expect(Array(ramp[(128 * 4)..<(129 * 4)]) == [255, 255, 255, 255])
    #expect(throws: StyleError.self) {
      try HeatmapTests.layer(#"{"heatmap-color": ["get", "colour"]}"#)
    }
  }

  /// Doubling the intensity of a lone point brightens its centre; an opacity of 0 draws nothing.
  @Test func intensityAndOpacityChangeTheImage() throws {
    func render(_ paint: String) throws -> RGBAImage {
      let text =
        #"{"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}}, "layers": [{"id": "h", "type": "heatmap", "source": "p", "paint": \#(paint)}]}"#
      let map = try Map(
        options: MapOptions(
          width: 64, height: 64, camera: try Camera(latitude: 0, longitude: 0, zoom: 6), backgroundColor: .transparent,
          mapType: .none),
        gpu: .surfaceless)
      try map.setStyle(try Style.parse(Array(text.utf8)), name: "h", dataRoot: "/")
      return try map.snapshot(alpha: .premultiplied).image
    }
    let plain = try render(#"{"heatmap-intensity": 0.5}"#)
    let doubled = try render(#"{"heatmap-intensity": 1}"#)
    let centre = plain.pixel(x: 32, y: 32)
    #expect(centre.a > 0, "the point shows")
    #expect(doubled.pixel(x: 32, y: 32) != centre)
    #expect(plain.pixel(x: 0, y: 0) == (0, 0, 0, 0), "far from the point, nothing")
    let hidden = try render(#"{"heatmap-opacity": 0}"#)
    #expect(hidden.pixels.allSatisfy { $0 == 0 })
  }
}
