import Foundation
import Tessera
import TesseraJSON
import TesseraStyle
import Testing

@testable import TesseraRender

/// Styles with many layers: layers drawing the same geometry share it, and what a style or a
/// frame may hold is capped with clear errors.
@Suite struct ManyLayersTests {
  /// A style over the demo city: a background, then `layers` (JSON objects without ids; each
  /// gets the id `l<index>`).
  static func style(_ layers: [String]) throws -> Style {
    let numbered = layers.enumerated().map { index, layer in
      "{\"id\": \"l\(index)\", " + layer.dropFirst()
    }
    let text = """
      {"version": 8, "sources": {"city": {"type": "vector", "url": "demo://city"}},
       "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#f0f0f0"}}\(
        numbered.map { ", " + $0 }.joined())]}
      """
    return try Style.parse(Array(text.utf8))
  }

  static func map(_ style: Style, limits: FrameLimits = FrameLimits()) throws -> Map {
    var options = MapOptions(
      width: 256, height: 192,
      camera: try Camera(latitude: 40, longitude: -74, zoom: 16, bearing: 20, viewingAngle: 30),
      mapType: .none)
    options.frameLimits = limits
    let map = try Map(options: options, gpu: .surfaceless)
    try map.setStyle(style, name: "many.json", dataRoot: "/")
    return map
  }

  static let roads =
    #"{"type": "line", "source": "city", "source-layer": "transportation", "paint": {"line-width": 6}}"#
  static func water(_ color: String) -> String {
    #"{"type": "fill", "source": "city", "source-layer": "water", "paint": {"fill-color": "\#(color)"}}"#
  }

  /// The signature rules: what changes geometry separates layers, what does not is shared.
  @Test func layersShareABucketExactlyWhenTheirGeometryIsTheSame() throws {
    let layers = try ManyLayersTests.style([
      #"{"type": "fill", "source": "city", "source-layer": "water", "paint": {"fill-color": "red"}}"#,
      #"{"type": "fill", "source": "city", "source-layer": "water", "minzoom": 3, "paint": {"fill-color": "blue", "fill-opacity": 0.5}}"#,
      #"{"type": "fill", "source": "city", "source-layer": "water", "layout": {"visibility": "visible"}}"#,
      #"{"type": "fill", "source": "city", "source-layer": "water", "filter": ["==", "class", "lake"]}"#,
      #"{"type": "fill", "source": "city", "source-layer": "park"}"#,
      #"{"type": "fill", "source": "city", "source-layer": "water", "paint": {"fill-color": ["get", "colour"]}}"#,
      #"{"type": "fill", "source": "city", "source-layer": "water", "paint": {"fill-outline-color": "black"}}"#,
      #"{"type": "line", "source": "city", "source-layer": "water"}"#,
      #"{"type": "line", "source": "city", "source-layer": "water", "layout": {"line-cap": "round"}}"#,
      #"{"type": "fill-extrusion", "source": "city", "source-layer": "building", "paint": {"fill-extrusion-height": 10}}"#,
      #"{"type": "fill-extrusion", "source": "city", "source-layer": "building", "paint": {"fill-extrusion-height": 20}}"#,
      #"{"type": "fill-extrusion", "source": "city", "source-layer": "building", "paint": {"fill-extrusion-height": 10, "fill-extrusion-color": "red"}}"#,
    ]).layers
    let names = StyleRenderer.bucketNames(layers)
    #expect(names["bg"] == nil, "backgrounds build no buckets")
    let expected = ["l0", "l0", "l0", "l3", "l4", "l5", "l6", "l7", "l8", "l9", "l10", "l9"]
    #expect((0..<12).map { names["l\($0)"] } == expected)
  }

  /// 400 layers repeating two build the buckets of two and keep the GPU memory of two; they
  /// draw exactly what the same layers draw when each builds its own geometry (a filter that
  /// passes everything but differs per layer defeats the sharing).
  @Test func repeatedLayersKeepOneCopyOfTheGeometry() throws {
    let two = try ManyLayersTests.map(
      try ManyLayersTests.style([ManyLayersTests.water("#3366cc"), ManyLayersTests.roads]))
    let twoFrame = try two.snapshot()
    func repeated(_ count: Int, distinct: Bool) -> [String] {
      (0..<count).flatMap { index in
        [ManyLayersTests.water(index % 2 == 0 ? "#cc3333" : "#3366cc"), ManyLayersTests.roads].map { layer in
          distinct ? layer.dropLast() + #", "filter": ["!=", "class", "none-\#(index)"]}"# : layer
        }
      }
    }
    let many = try ManyLayersTests.map(try ManyLayersTests.style(repeated(200, distinct: false)))
    let manyFrame = try many.snapshot()
    #expect(twoFrame.statistics.bucketsBuilt > 0)
    #expect(manyFrame.statistics.bucketsBuilt == twoFrame.statistics.bucketsBuilt)
    #expect(many.gpuCacheBytesUsed == two.gpuCacheBytesUsed)
    let shared = try ManyLayersTests.map(try ManyLayersTests.style(repeated(20, distinct: false))).snapshot()
    let separate = try ManyLayersTests.map(try ManyLayersTests.style(repeated(20, distinct: true))).snapshot()
    #expect(separate.statistics.bucketsBuilt == 20 * twoFrame.statistics.bucketsBuilt)
    #expect(shared.image == separate.image)
  }

  @Test func aStyleWithTooManyLayersIsRefusedNamingTheField() throws {
    let layers = String(
      repeating: #"{"id": "x", "type": "background"},"#, count: Style.maximumLayers)
    let text = #"{"version": 8, "sources": {}, "layers": [\#(layers){"id": "y", "type": "background"}]}"#
    do {
      _ = try Style.parse(Array(text.utf8), source: "huge.json")
      Issue.record("a style over the layer cap must be refused")
    } catch {
      #expect(error.description.contains("huge.json"))
      #expect(error.description.contains("layers"))
      #expect(error.description.contains("\(Style.maximumLayers + 1) layers"))
    }
  }

  @Test func aFrameOverItsGeometryLimitFailsClearly() throws {
    let map = try ManyLayersTests.map(
      try ManyLayersTests.style([ManyLayersTests.water("blue"), ManyLayersTests.roads]),
      limits: FrameLimits(geometryBytes: 4096))
    #expect {
      try map.snapshot()
    } throws: { error in
      let message = "\(error)"
      return error is FrameLimitError && message.hasPrefix("many.json: the frame's tile geometry exceeds")
        && message.contains("geometryBytes")
    }
    // The same map with room draws.
    let roomy = try ManyLayersTests.map(
      try ManyLayersTests.style([ManyLayersTests.water("blue"), ManyLayersTests.roads]))
    #expect(try roomy.snapshot().statistics.drawCalls > 0)
  }

  @Test func aFrameOverItsDrawLimitFailsNamingTheLayer() throws {
    let layers = (0..<50).map { _ in ManyLayersTests.roads }
    let map = try ManyLayersTests.map(try ManyLayersTests.style(layers), limits: FrameLimits(draws: 20))
    #expect {
      try map.snapshot()
    } throws: { error in
      let message = "\(error)"
      return error is FrameLimitError && message.hasPrefix("many.json: the frame exceeds 20 draws at layer 'l")
    }
  }
}
