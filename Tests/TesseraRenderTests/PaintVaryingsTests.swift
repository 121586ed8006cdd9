import Foundation
import TesseraShaders
import TesseraStyle
import Testing

@testable import Tessera
@testable import TesseraRender

/// Paint passed as flat varyings (``PaintVaryings``): chosen for the programs a style draws with
/// more than one set of data-driven properties, and never changing a pixel.
@Suite struct PaintVaryingsTests {
  /// Squares with a `k` property, a line across them and two points (degrees near 0, 0).
  static let source = #"""
    {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
      {"type": "Feature", "properties": {"k": "a"}, "geometry": {"type": "Polygon", "coordinates": [[[-8, -6], [-1, -6], [-1, 6], [-8, 6], [-8, -6]]]}},
      {"type": "Feature", "properties": {"k": "b"}, "geometry": {"type": "Polygon", "coordinates": [[[1, -6], [8, -5], [8, 6], [1, 6], [1, -6]]]}},
      {"type": "Feature", "properties": {"k": "a"}, "geometry": {"type": "LineString", "coordinates": [[-12, -3], [0, 4], [12, -2]]}},
      {"type": "Feature", "properties": {"k": "b"}, "geometry": {"type": "LineString", "coordinates": [[-12, 7], [12, 8]]}},
      {"type": "Feature", "properties": {"k": "a"}, "geometry": {"type": "Point", "coordinates": [-5, -8]}},
      {"type": "Feature", "properties": {"k": "b"}, "geometry": {"type": "Point", "coordinates": [5, -8]}}]}}
    """#

  /// Layers drawn at zoom 3: constant fills, lines coloured by data, circles sized by data.
  static let drawn = #"""
    {"id": "fill", "type": "fill", "source": "s", "filter": ["==", ["geometry-type"], "Polygon"],
     "paint": {"fill-color": "rgba(40, 120, 200, 0.8)", "fill-outline-color": "#102030"}},
    {"id": "line", "type": "line", "source": "s", "filter": ["==", ["geometry-type"], "LineString"],
     "paint": {"line-width": 3, "line-color": ["match", ["get", "k"], "a", "#d04010", "#30a050"], "line-opacity": 0.9}},
    {"id": "circle", "type": "circle", "source": "s", "filter": ["==", ["geometry-type"], "Point"],
     "paint": {"circle-radius": ["match", ["get", "k"], "a", 5, 8], "circle-color": "#6030a0", "circle-blur": 0.2}}
    """#

  /// The same programs with the other masks, shown only from zoom 20 (never drawn here).
  static let hidden = #"""
    {"id": "fill-by-data", "type": "fill", "source": "s", "minzoom": 20,
     "paint": {"fill-color": ["match", ["get", "k"], "a", "red", "blue"]}},
    {"id": "line-constant", "type": "line", "source": "s", "minzoom": 20, "paint": {"line-color": "black"}},
    {"id": "circle-constant", "type": "circle", "source": "s", "minzoom": 20, "paint": {"circle-radius": 3}}
    """#

  static func style(_ layers: String) throws -> Style {
    try Style.parse(
      Array(
        #"{"version": 8, "sources": {"s": \#(source)}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "rgb(240, 234, 216)"}}, \#(layers)]}"#
          .utf8), source: "paint-varyings.json")
  }

  @Test func programsDrawnWithMoreThanOneMaskAreChosen() throws {
    #expect(PaintVaryings(layers: try Self.style(Self.drawn).layers).programs.isEmpty)
    let both = PaintVaryings(layers: try Self.style(Self.drawn + "," + Self.hidden).layers)
    #expect(both.programs == ["fill", "fill_outline", "line", "circle"])
    // Each program with one mask (the hidden layers alone) shares nothing: no switch.
    #expect(PaintVaryings(layers: try Self.style(Self.hidden).layers).programs.isEmpty)
  }

  /// Masks that differ only in what the vertex stage alone reads (a line's width, an
  /// extrusion's height), or that come with switches reading other inputs (patterns), read the
  /// same fragment inputs as far as the switch could make them: no switch.
  @Test func masksTheFragmentStageCannotTellApartChooseNothing() throws {
    let layers = #"""
      {"id": "thin", "type": "line", "source": "s", "paint": {"line-width": 2}},
      {"id": "by-class", "type": "line", "source": "s", "paint": {"line-width": ["match", ["get", "k"], "a", 2, 6]}},
      {"id": "patterned", "type": "line", "source": "s",
       "paint": {"line-pattern": "p", "line-color": ["match", ["get", "k"], "a", "red", "blue"]}},
      {"id": "flat", "type": "fill-extrusion", "source": "s", "paint": {"fill-extrusion-height": 10}},
      {"id": "tall", "type": "fill-extrusion", "source": "s", "paint": {"fill-extrusion-height": ["get", "h"]}}
      """#
    #expect(PaintVaryings(layers: try Self.style(layers).layers).programs.isEmpty)
    // A line coloured by data drawn solid beside the constant ones does share.
    let solid = #"{"id": "coloured", "type": "line", "source": "s", "paint": {"line-color": ["get", "c"]}}"#
    #expect(PaintVaryings(layers: try Self.style(layers + "," + solid).layers).programs == ["line"])
  }

  /// Dashed lines read the solid ones' inputs (line.fragment.glsl), so their paint is compared
  /// with the solid lines': a dashed line coloured by data beside constant solid ones shares.
  @Test func dashedLinesAreComparedWithSolidOnes() throws {
    let dashed = #"""
      {"id": "dashed", "type": "line", "source": "s",
       "paint": {"line-dasharray": [2, 1], "line-color": ["match", ["get", "k"], "a", "red", "blue"]}}
      """#
    #expect(PaintVaryings(layers: try Self.style(dashed).layers).programs.isEmpty)
    let solid = #"{"id": "thin", "type": "line", "source": "s", "paint": {"line-width": 2}}"#
    #expect(PaintVaryings(layers: try Self.style(dashed + "," + solid).layers).programs == ["line"])
    #expect(LineLayerRenderer.program.switchesKeepingInputs == [LineLayerRenderer.dashed])
  }

  /// The frame draws with the switch, and the first frame's warm-up predicts those pipelines.
  @Test(arguments: [0.0, 30.0])
  func framesDrawWithTheSwitchThatTheWarmUpPredicts(bearing: Double) throws {
    let map = try Map(
      options: MapOptions(
        width: 160, height: 120,
        camera: try Camera(latitude: 0, longitude: 0, zoom: 3, bearing: bearing, viewingAngle: bearing),
        mapType: .none),
      gpu: .surfaceless)
    try map.setStyle(try Self.style(Self.drawn + "," + Self.hidden), name: "paint-varyings", dataRoot: "/")
    _ = try map.snapshot()
    let (drawn, predicted) = try map.drawnAndPredictedPipelines()
    let switched = drawn.compactMap { $0.variant as? StylePipeline }.filter {
      $0.switches.contains(PaintVaryings.define)
    }
    #expect(Set(switched.map(\.program.name)) == ["fill", "fill_outline", "line", "circle"])
    #expect(drawn.isSubset(of: predicted), "not predicted: \(drawn.subtracting(predicted))")
  }

  @Test func theSwitchIsAddedOnceAndOnlyToChosenPrograms() {
    let varyings = PaintVaryings(programs: [LineLayerRenderer.program.name])
    let line = StylePipeline(program: LineLayerRenderer.program, switches: [LineLayerRenderer.dashed])
    let switched = varyings.apply(line)
    #expect(switched.switches == [LineLayerRenderer.dashed, PaintVaryings.define])
    #expect(varyings.apply(switched) == switched)
    #expect(switched.descriptor.defines[PaintVaryings.define] == "1")
    let fill = StylePipeline(program: FillLayerRenderer.program)
    #expect(varyings.apply(fill) == fill)
    #expect(PaintVaryings.define == PaintPragma.varyingsDefine)
  }

  /// The style with the hidden layers draws its fills, lines and circles with the switch (paint
  /// as flat varyings), the one without them with uniforms and smooth varyings: the same bytes,
  /// flat and rotated.
  @Test(arguments: [0.0, 30.0])
  func theSwitchChangesNoPixel(bearing: Double) throws {
    func image(_ layers: String) throws -> [UInt8] {
      let map = try Map(
        options: MapOptions(
          width: 160, height: 120, camera: try Camera(latitude: 0, longitude: 0, zoom: 3, bearing: bearing),
          mapType: .none),
        gpu: .surfaceless)
      try map.setStyle(try Self.style(layers), name: "paint-varyings", dataRoot: "/")
      return try map.snapshot().image.pixels
    }
    let plain = try image(Self.drawn)
    #expect(try image(Self.drawn + "," + Self.hidden) == plain)
    // The picture holds every layer: not just the background.
    #expect(Set(stride(from: 0, to: plain.count, by: 4).map { plain[$0] }).count > 8)
    // Dashed lines coloured by data, with the switch only because of a hidden solid line.
    let dashed = #"""
      {"id": "dashed", "type": "line", "source": "s", "filter": ["==", ["geometry-type"], "LineString"],
       "paint": {"line-width": 3, "line-dasharray": [2, 1], "line-color": ["match", ["get", "k"], "a", "#d04010", "#30a050"]}}
      """#
    let solid = #"{"id": "solid", "type": "line", "source": "s", "minzoom": 20, "paint": {"line-color": "black"}}"#
    #expect(PaintVaryings(layers: try Self.style(dashed + "," + solid).layers).programs == ["line"])
    let dashes = try image(dashed)
    #expect(try image(dashed + "," + solid) == dashes)
    #expect(Set(stride(from: 0, to: dashes.count, by: 4).map { dashes[$0] }).count > 3)
  }
}
