import Foundation
import Tessera
import TesseraImage
import TesseraStyle
import Testing

@testable import TesseraRender

/// Dash patterns as MapLibre Native makes them: a signed-distance texture of one period.
@Suite struct LineDashTests {
  static func dashes(_ array: String, cap: String = "butt") throws -> LineDashes? {
    let style = try Style.parse(
      Array(
        #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "l", "type": "line", "source": "s", "layout": {"line-cap": "\#(cap)"}, "paint": {"line-width": 4, "line-dasharray": \#(array)}}]}"#
          .utf8))
    return LineDashes(layer: style.layers[0], zoom: 3)
  }

  /// The first line layer of a style with `layout` and `paint` (JSON object members).
  static func layer(layout: String, paint: String) throws -> StyleLayer {
    try Style.parse(
      Array(
        #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "l", "type": "line", "source": "s", "layout": {\#(layout)}, "paint": {\#(paint)}}]}"#
          .utf8)
    ).layers[0]
  }

  /// The textures a layer's patterns need are the distinct width-less patterns of every tenth of
  /// a zoom, found without evaluating the width, and from one evaluation when nothing reads the
  /// zoom.
  @Test func aLayersTexturesAreItsPatternsAtEveryZoom() throws {
    let cases: [(layout: String, paint: String, count: Int)] = [
      (
        #""line-cap": "round""#,
        #""line-dasharray": [2, 1], "line-width": ["interpolate", ["linear"], ["zoom"], 5, 1, 15, 8]"#, 1
      ),
      (
        "",
        #""line-dasharray": ["step", ["zoom"], ["literal", [1, 1]], 10, ["literal", [3, 1]], 14.5, ["literal", [1, 1]]]"#,
        2
      ),
      (#""line-cap": ["step", ["zoom"], "butt", 12, "round"]"#, #""line-dasharray": [2, 2]"#, 2),
      (
        "",
        #""line-dasharray": ["step", ["zoom"], ["literal", [0, 0]], 8, ["literal", [4]], 9, ["literal", [2, 0.5]]]"#, 1
      ),
      ("", #""line-dasharray": [0, 0]"#, 0),
    ]
    for (layout, paint, count) in cases {
      let layer = try LineDashTests.layer(layout: layout, paint: paint)
      // Every zoom sampled, the widths left out afterwards.
      var expected: [LineDashes] = []
      for step in 0...240 {
        guard let dashes = LineDashes(layer: layer, zoom: Double(step) / 10) else { continue }
        let texture = try #require(LineDashes(textureOf: layer, zoom: Double(step) / 10))
        #expect(texture.lengths == dashes.lengths && texture.round == dashes.round && texture.floorWidth == 0)
        if !expected.contains(texture) { expected.append(texture) }
      }
      let textures = LineDashes.textures(of: layer)
      #expect(textures == expected, "\(paint)")
      #expect(textures.count == count, "\(paint)")
    }
  }

  /// The distance texel (alpha) at `x` of row `row`.
  static func value(_ texels: [UInt8], x: Int, row: Int = 0) -> Int {
    Int(texels[(row * LineDashes.textureWidth + x) * 4 + 3])
  }

  @Test func texelsAreSignedDistancesFromTheDashEdges() throws {
    let dashes = try #require(try LineDashTests.dashes("[1, 3]"))
    #expect(dashes.period == 4 && dashes.floorWidth == 4 && dashes.textureHeight == 1)
    let texels = dashes.texels()
    #expect(texels.count == LineDashes.textureWidth * 4)
    // The dash covers texels 0…64 of 256: its middle lies 32 texels inside, the gap's middle
    // 96 outside, and the period starts at the dash's edge.
    #expect(LineDashTests.value(texels, x: 32) == 128 + 32)
    #expect(LineDashTests.value(texels, x: 160) == 128 - 96)
    #expect(LineDashTests.value(texels, x: 64) == 128)
    #expect(LineDashTests.value(texels, x: 0) == 128)
  }

  @Test func dashesAndGapsAlternateAndZeroGapsJoinDashes() throws {
    // [3, 2, 1, 2]: 32 texels a width: dashes over 0…96 and 160…192.
    let texels = try #require(try LineDashTests.dashes("[3, 2, 1, 2]")).texels()
    #expect(LineDashTests.value(texels, x: 48) == 128 + 48)
    #expect(LineDashTests.value(texels, x: 128) == 128 - 32)
    #expect(LineDashTests.value(texels, x: 176) == 128 + 16)
    // [1, 0, 1, 1]: the zero gap joins two dashes into one of two thirds of the period.
    let joined = try #require(try LineDashTests.dashes("[1, 0, 1, 1]")).texels()
    #expect(LineDashTests.value(joined, x: 85) > 128 + 80)
    #expect(LineDashTests.value(joined, x: 214) < 128 - 40)
    // [1, 0, 1]: odd, so the last dash runs on into the first: solid.
    let solid = try #require(try LineDashTests.dashes("[1, 0, 1]")).texels()
    #expect((0..<256).allSatisfy { LineDashTests.value(solid, x: $0) == 255 })
  }

  @Test func zeroLengthsAndOddArraysFollowMapLibre() throws {
    // [1, 0]: solid (the gap vanishes, the lone dash reaches past both ends); [0, 1]: nothing.
    let solid = try #require(try LineDashTests.dashes("[1, 0]")).texels()
    #expect((0..<256).allSatisfy { LineDashTests.value(solid, x: $0) == 255 })
    let empty = try #require(try LineDashTests.dashes("[0, 1]")).texels()
    #expect((0..<256).allSatisfy { LineDashTests.value(empty, x: $0) == 0 })
    // Fewer than two lengths, or no length at all: a solid line without a pattern.
    #expect(try LineDashTests.dashes("[2]") == nil)
    #expect(try LineDashTests.dashes("[0, 0]") == nil)
    // Round caps: 15 rows in a 16-row texture; a zero-length dash is a round dot.
    let round = try #require(try LineDashTests.dashes("[0, 2]", cap: "round"))
    #expect(round.textureHeight == 16)
    let dots = round.texels()
    #expect(LineDashTests.value(dots, x: 0, row: 7) > 128, "the dot's centre is inside")
    #expect(LineDashTests.value(dots, x: 128, row: 7) < 128, "half a period on, outside")
  }

  /// Two layers drawing one shared bucket with different patterns each get their own texture.
  @Test func layersSharingABucketDrawTheirOwnPatterns() throws {
    let style = #"""
      {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-20, 0], [20, 0]]}}}},
       "layers": [
        {"id": "solid", "type": "line", "source": "g", "paint": {"line-width": 6, "line-color": "yellow", "line-dasharray": [1, 0]}},
        {"id": "none", "type": "line", "source": "g", "paint": {"line-width": 6, "line-color": "black", "line-dasharray": [0, 1]}}]}
      """#
    let map = try Map(
      options: MapOptions(
        width: 64, height: 16, camera: try Camera(latitude: 0, longitude: 0, zoom: 1), backgroundColor: .white,
        mapType: .none),
      gpu: .surfaceless)
    try map.setStyle(try Style.parse(Array(style.utf8)), name: "shared", dataRoot: "/")
    let image = try map.snapshot().image
    for x in stride(from: 20, through: 44, by: 4) {
      #expect(image.pixel(x: x, y: 8) == (255, 255, 0, 255), "x \(x)")
    }
  }
}
