import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraStyle
import Testing

@testable import TesseraRender

/// Pattern paint: the sprite atlas, where tiles lie in the repeating pattern, and the style's
/// pattern properties and sprites.
@Suite struct PatternTests {
  static func image(_ width: Int, _ height: Int, _ color: (UInt8, UInt8, UInt8, UInt8)) -> RGBAImage {
    var image = RGBAImage(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width { image.setPixel(x: x, y: y, color) }
    }
    return image
  }

  @Test func atlasPlacesImagesWithWrappedBorders() throws {
    var striped = RGBAImage(width: 3, height: 2)
    for x in 0..<3 {
      striped.setPixel(x: x, y: 0, (UInt8(10 * (x + 1)), 0, 0, 255))
      striped.setPixel(x: x, y: 1, (0, UInt8(10 * (x + 1)), 0, 255))
    }
    let atlas = PatternAtlas(images: [
      "striped": SpriteImage(image: striped, pixelRatio: 1),
      "tall": SpriteImage(image: PatternTests.image(2, 6, (0, 0, 255, 255)), pixelRatio: 2),
    ])
    #expect(atlas.problems.isEmpty)
    // Tallest first: "tall" at the origin, "striped" after it on the same row.
    let tall = try #require(atlas.positions["tall"])
    #expect(tall.topLeft == SIMD2(1, 1) && tall.bottomRight == SIMD2(3, 7) && tall.pixelRatio == 2)
    let position = try #require(atlas.positions["striped"])
    #expect(position.topLeft == SIMD2(5, 1) && position.bottomRight == SIMD2(8, 3))
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
      Array(atlas.pixels[(y * atlas.width + x) * 4..<(y * atlas.width + x) * 4 + 4])
    }
    #expect(pixel(5, 1) == [10, 0, 0, 255])
    // The border repeats the opposite edge: above the top row is the bottom row, left of the
    // left column the right column; corners stay clear (the atlas's clear corner is (0, 0)).
    #expect(pixel(5, 0) == [0, 10, 0, 255])
    #expect(pixel(4, 1) == [30, 0, 0, 255])
    #expect(pixel(8, 2) == [0, 10, 0, 255])
    #expect(pixel(5, 3) == [10, 0, 0, 255])
    #expect(pixel(4, 0) == [0, 0, 0, 0])
    #expect(pixel(0, 0) == [0, 0, 0, 0])
  }

  /// Every pixel of atlases of generated images (1×1 to 9×7, both border kinds) against the
  /// rule written out pixel by pixel: the image at its place plus one, its opposite edges around
  /// it when borders wrap, clear elsewhere.
  @Test func atlasPixelsFollowTheBorderRule() throws {
    var state: UInt32 = 12_345
    func next() -> UInt8 {
      state = state &* 1_103_515_245 &+ 12_345
      return UInt8(truncatingIfNeeded: state >> 16)
    }
    var images: [String: SpriteImage] = [:]
    for (index, (width, height)) in [(1, 1), (3, 2), (9, 7), (2, 5), (4, 4), (7, 1)].enumerated() {
      var image = RGBAImage(width: width, height: height)
      for y in 0..<height {
        for x in 0..<width { image.setPixel(x: x, y: y, (next(), next(), next(), 255)) }
      }
      images["image \(index)"] = SpriteImage(image: image, pixelRatio: 1)
    }
    for wraps in [true, false] {
      let atlas = PatternAtlas(images: images, wrapsBorders: wraps)
      var expected = [UInt8](repeating: 0, count: atlas.width * atlas.height * 4)
      for (name, sprite) in images {
        let position = try #require(atlas.positions[name])
        let (left, top) = (Int(position.topLeft.x), Int(position.topLeft.y))
        let (w, h) = (sprite.image.width, sprite.image.height)
        func put(_ sourceX: Int, _ sourceY: Int, _ x: Int, _ y: Int) {
          for channel in 0..<4 {
            expected[(y * atlas.width + x) * 4 + channel] = sprite.image.pixels[(sourceY * w + sourceX) * 4 + channel]
          }
        }
        for row in 0..<h {
          for column in 0..<w { put(column, row, left + column, top + row) }
        }
        guard wraps else { continue }
        for row in 0..<h {
          put(w - 1, row, left - 1, top + row)
          put(0, row, left + w, top + row)
        }
        for column in 0..<w {
          put(column, h - 1, left + column, top - 1)
          put(column, 0, left + column, top + h)
        }
      }
      let difference = zip(atlas.pixels, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      #expect(atlas.pixels.count == expected.count, "wraps: \(wraps)")
      #expect(difference == nil, "wraps: \(wraps), first differing byte \(difference ?? -1)")
    }
  }

  @Test func atlasLeavesOutWhatDoesNotFit() {
    let atlas = PatternAtlas(images: [
      "huge": SpriteImage(image: RGBAImage(width: PatternAtlas.maximumSide, height: 1), pixelRatio: 1),
      "small": SpriteImage(image: PatternTests.image(1, 1, (1, 2, 3, 255)), pixelRatio: 1),
    ])
    #expect(atlas.positions["huge"] == nil)
    #expect(atlas.positions["small"] != nil)
    #expect(atlas.problems == ["image 'huge' does not fit the 4096-pixel pattern atlas; left out"])
    #expect(PatternAtlas.empty.isEmpty && PatternAtlas.empty.width == 0)
  }

  @Test func tilesLieInThePatternByTheirOriginInPointsOfTheIntegerZoom() throws {
    // Tile 3/5/2 at style zoom 4.6: integer zoom 4, so the tile is 1024 points wide there
    // and its origin is (5 · 1024, 2 · 1024) points, split into 65536ths and remainders.
    var uniforms = PatternPaint.tileUniforms(TileID(z: 3, x: 5, y: 2), wrap: 0, extent: 8192, zoom: 4.6)
    #expect(uniforms.value(of: PatternPaint.pixelCoordUpper) == .vec2(0, 0))
    #expect(uniforms.value(of: PatternPaint.pixelCoordLower) == .vec2(5120, 2048))
    #expect(uniforms.value(of: PatternPaint.tileRatio) == .float(1024 / 8192))
    // A world copy to the west and a deep tile: the halves keep every bit.
    uniforms = PatternPaint.tileUniforms(TileID(z: 16, x: 40000, y: 30000), wrap: -1, extent: 8192, zoom: 16.2)
    let x = 512 * (40000 - 65536)
    #expect(uniforms.value(of: PatternPaint.pixelCoordUpper) == .vec2(Float(x >> 16), Float((512 * 30000) >> 16)))
    #expect(
      uniforms.value(of: PatternPaint.pixelCoordLower) == .vec2(Float(x & 0xFFFF), Float((512 * 30000) & 0xFFFF)))
    // Hostile zooms do not trap.
    _ = PatternPaint.tileUniforms(TileID(z: 0, x: 0, y: 0), wrap: Int.max / 2, extent: 1, zoom: .infinity)
    _ = PatternPaint.tileUniforms(TileID(z: 0, x: 0, y: 0), wrap: 0, extent: 1, zoom: .nan)
  }

  @Test func stylesReadSpritesAndPatternProperties() throws {
    let style = try Style.parse(
      Array(
        #"""
        {"version": 8, "sprite": [{"id": "default", "url": "a"}, {"id": "extra", "url": "b"}],
         "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-pattern": ["image", "grass"]}},
          {"id": "f", "type": "fill", "source": "s", "paint": {"fill-pattern": ["get", "image"]}},
          {"id": "l", "type": "line", "source": "s", "paint": {"line-pattern": ["step", ["zoom"], "a", 5, "b"]}}
         ]}
        """#.utf8), source: "p.json")
    #expect(style.sprites == [StyleSprite(id: "default", url: "a"), StyleSprite(id: "extra", url: "b")])
    #expect(style.sprites[1].imageName("dots") == "extra:dots")
    #expect(style.sprites[0].imageName("dots") == "dots")
    #expect(style.warnings.isEmpty, "\(style.warnings)")
    #expect(style.layers.allSatisfy { $0.isVisible(atZoom: 6) })
    #expect(style.layers[0].value(BackgroundProperties.pattern, zoom: 3) == "grass")
    #expect(style.layers[1][FillProperties.pattern].isDataDriven)
    #expect(style.layers[2].value(LineProperties.pattern, zoom: 4) == "a")
    #expect(style.layers[2].value(LineProperties.pattern, zoom: 6) == "b")
    let single = try Style.parse(Array(#"{"version": 8, "sprite": "icons", "sources": {}, "layers": []}"#.utf8))
    #expect(single.sprites == [StyleSprite(id: "default", url: "icons")])
  }

  @Test(arguments: [
    (#""sprite": 5"#, "sprite: expected a URL or an array"),
    (#""sprite": [{"id": "a", "url": "x"}, {"id": "a", "url": "y"}]"#, "sprite[1].id: duplicate sprite id 'a'"),
    (#""sprite": [{"url": "x"}]"#, "sprite[0].id"),
  ])
  func badSpritesNameTheField(member: String, message: String) {
    do {
      _ = try Style.parse(Array(#"{"version": 8, \#(member), "sources": {}, "layers": []}"#.utf8), source: "p.json")
      Issue.record("must be refused: \(member)")
    } catch {
      #expect("\(error)".contains(message), "\(error)")
    }
  }

  @Test func patternLayersPickThePatternedPipelines() throws {
    let style = try Style.parse(
      Array(
        #"""
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [
          {"id": "f", "type": "fill", "source": "s", "paint": {"fill-pattern": "a"}},
          {"id": "g", "type": "fill", "source": "s", "paint": {"fill-pattern": "a", "fill-outline-color": "red"}},
          {"id": "l", "type": "line", "source": "s", "paint": {"line-pattern": ["get", "p"], "line-dasharray": [1, 1]}},
          {"id": "m", "type": "line", "source": "s", "paint": {"line-dasharray": [1, 1]}}
         ]}
        """#.utf8))
    let context = PipelineContext(zoom: 3, clipsWithStencil: false)
    let fill = FillLayerRenderer().pipelines(style.layers[0], context)
    #expect(fill.map(\.switches) == [["PATTERN"], ["PATTERN"]])
    // An outline of its own colour is not patterned.
    #expect(FillLayerRenderer().pipelines(style.layers[1], context).map(\.switches) == [["PATTERN"], []])
    // A pattern replaces dashes; per-feature images are per-vertex attributes.
    let line = try #require(LineLayerRenderer().pipelines(style.layers[2], context).first)
    #expect(line.switches == ["PATTERN"])
    #expect(line.mask.contains(.binding(LineLayerRenderer.paint.firstIndex { $0.isPattern }!)))
    #expect(LineLayerRenderer().pipelines(style.layers[3], context).first?.switches == ["DASHED"])
    // Extrusions: a translucent layer's buildings know the pattern, and so does its composite,
    // which then reads the coverage its own pass measures (pattern images may be translucent).
    let extrusion = try Style.parse(
      Array(
        #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "e", "type": "fill-extrusion", "source": "s", "paint": {"fill-extrusion-pattern": "a", "fill-extrusion-opacity": 0.5}}]}"#
          .utf8))
    #expect(extrusion.warnings.isEmpty, "\(extrusion.warnings)")
    #expect(
      FillExtrusionLayerRenderer().pipelines(extrusion.layers[0], context).map(\.switches) == [
        ["PATTERN"], ["PATTERN"], ["COVERAGE"],
      ])
  }
}
