import TesseraGeo
import TesseraStyle
import Testing

@testable import TesseraRender

/// The frames a variable anchor's shift is taken in, as MapLibre Native takes them: collision
/// boxes turned with the bearing for text rotated with the map, drawn labels grown by the
/// perspective ratio and moved along the map for text lying on it.
@Suite struct AnchorShiftTests {
  static func placer(bearing: Double = 0, tilt: Double = 0) throws -> SymbolPlacer {
    SymbolPlacer(
      transform: CameraTransform(
        camera: try Camera(latitude: 0, longitude: 0, zoom: 10, bearing: bearing, viewingAngle: tilt),
        viewport: try Viewport(width: 200, height: 100)))
  }

  static func values(_ layout: String, placer: SymbolPlacer) throws -> SymbolPlacer.LayerValues {
    let style = try Style.parse(
      Array(
        #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "t", "type": "symbol", "source": "s", "layout": \#(layout)}]}"#
          .utf8))
    return SymbolPlacer.LayerValues(layer: style.layers[0], zoom: 10, transform: placer.transform)
  }

  static func close(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

  @Test func collisionShiftsTurnWithTheMapOnlyForMapRotatedText() throws {
    let placer = try AnchorShiftTests.placer(bearing: 90)
    let viewport = try AnchorShiftTests.values(#"{"text-field": "x"}"#, placer: placer)
    // Rotated with the map but facing the screen; rotated with the map and lying on it
    // (`auto` pitch alignment follows the rotation).
    let rotated = try AnchorShiftTests.values(
      #"{"text-field": "x", "text-rotation-alignment": "map", "text-pitch-alignment": "viewport"}"#, placer: placer)
    let onMap = try AnchorShiftTests.values(
      #"{"text-field": "x", "text-rotation-alignment": "map"}"#, placer: placer)
    #expect(placer.collisionShift(SIMD2(10, 0), values: viewport) == SIMD2(10, 0))
    #expect(AnchorShiftTests.close(placer.collisionShift(SIMD2(10, 0), values: rotated), SIMD2(0, 10)))
    #expect(AnchorShiftTests.close(placer.collisionShift(SIMD2(10, 0), values: onMap), SIMD2(0, -10)))
  }

  @Test func drawnShiftsGrowWithPerspectiveAndLieOnTheMapForTextOnIt() throws {
    let placer = try AnchorShiftTests.placer(tilt: 40)
    let viewport = try AnchorShiftTests.values(#"{"text-field": "x"}"#, placer: placer)
    let onMap = try AnchorShiftTests.values(#"{"text-field": "x", "text-pitch-alignment": "map"}"#, placer: placer)
    guard case .screen(let screen) = placer.renderShift(SIMD2(10, -4), perspective: 1.5, values: viewport) else {
      Issue.record("text facing the screen moves along it")
      return
    }
    #expect(screen == SIMD2(15, -6))
    guard case .map(let map) = placer.renderShift(SIMD2(10, -4), perspective: 1.5, values: onMap) else {
      Issue.record("text lying on the map moves along it")
      return
    }
    #expect(map == SIMD2(15, -6))
  }
}
