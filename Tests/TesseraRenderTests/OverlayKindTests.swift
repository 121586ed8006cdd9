import Foundation
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraTestSupport
import Testing

@testable import Tessera

/// Spans, ground overlays, hit testing, the implicit camera and the limits of overlays.
@Suite struct OverlayKindTests {
  static let green = Color(r: 0, g: 200, b: 0)
  static let red = Color(r: 255, g: 0, b: 0)

  static func isRed(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool { p.r > 150 && p.g < 80 && p.b < 80 }
  static func isGreen(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool { p.g > 120 && p.r < 80 && p.b < 80 }

  @Test func spansColourTheirSegmentsAndTheLastCoversTheRest() throws {
    let map = try OverlayTests.map(try Camera(latitude: 0, longitude: 0, zoom: 14))
    // Four segments west to east; a green span of 1.5 segments, then red for the rest.
    let path = (0...4).map { Coordinate(latitude: 0, longitude: -0.008 + Double($0) * 0.004) }
    let line = Polyline(path: path)
    line.strokeWidth = 6
    line.spans = [StyleSpan(color: OverlayKindTests.green, segments: 1.5), StyleSpan(color: OverlayKindTests.red)]
    map.add(line)
    let image = try map.snapshot().image
    func pixel(atSegment position: Double) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
      let coordinate = Coordinate(latitude: 0, longitude: -0.008 + position * 0.004)
      let point = try #require(map.projection.point(for: coordinate))
      return image.pixel(x: Int(point.x), y: Int(point.y))
    }
    #expect(OverlayKindTests.isGreen(try pixel(atSegment: 0.5)))
    #expect(OverlayKindTests.isGreen(try pixel(atSegment: 1.3)))
    #expect(OverlayKindTests.isRed(try pixel(atSegment: 1.8)))
    #expect(OverlayKindTests.isRed(try pixel(atSegment: 3.5)))
  }

  @Test func repeatingSpansFollowTheirLengthsInMetres() {
    // 10 km along the equator, 1 km green then 500 m clear, repeated.
    let path = [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0.0899321606)]
    let spans = StyleSpan.repeating(
      path: path, styles: [.solid(OverlayKindTests.green), .clear], lengths: [1000, 500], kind: .geodesic)
    let metresPerSegment = OverlayGeometry.centralAngle(path[0], path[1]) * OverlayGeometry.earthRadius
    #expect(abs(metresPerSegment - 10_000) < 1)
    #expect(spans.count == 14)  // 6 full pairs, then 1,000 m of green and the last 1,000 m
    #expect(abs(spans[0].segments * metresPerSegment - 1000) < 1e-6)
    #expect(abs(spans[1].segments * metresPerSegment - 500) < 1e-6)
    #expect(abs(spans.reduce(0) { $0 + $1.segments } - 1) < 1e-9)
    #expect(spans[1].style == .clear)
  }

  @Test func slicesFollowTheirSegments() {
    let path = [
      Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
      Coordinate(latitude: 1, longitude: 1),
    ]
    let slice = OverlayGeometry.slice(path, from: 0.5, to: 1.5, geodesic: false)
    #expect(slice == [Coordinate(latitude: 0, longitude: 0.5), path[1], Coordinate(latitude: 0.5, longitude: 1)])
    #expect(OverlayGeometry.slice(path, from: 1, to: 1, geodesic: false).isEmpty)
  }

  @Test func aBowtieSplitsIntoItsTwoLobes() {
    let bowtie = [(0.0, 0.0), (2, 2), (2, 0), (0, 2), (0, 0)].map { Coordinate(latitude: $0.1, longitude: $0.0) }
    let loops = SelfIntersection.simpleRings(bowtie)
    #expect(loops.count == 2)
    func area(_ ring: [Coordinate]) -> Double {
      abs(
        zip(ring, ring.dropFirst()).reduce(0) { $0 + $1.0.longitude * $1.1.latitude - $1.1.longitude * $1.0.latitude })
        / 2
    }
    #expect(abs(loops.map(area).reduce(0, +) - 2) < 1e-12)  // two triangles of area 1
    #expect(loops.allSatisfy { SelfIntersection.simpleRings($0).count == 1 })
    let square = [(0.0, 0.0), (1, 0), (1, 1), (0, 1), (0, 0)].map { Coordinate(latitude: $0.1, longitude: $0.0) }
    #expect(SelfIntersection.simpleRings(square) == [square])
  }

  @Test func aGroundOverlayAtAZoomLevelHasItsPixelSizeThere() throws {
    let icon = RGBAImage(width: 128, height: 64, fill: OverlayKindTests.red)
    let overlay = GroundOverlay(position: Coordinate(latitude: 40, longitude: -74), icon: icon, zoomLevel: 17)
    overlay.anchor = (0, 1)
    let corners = try #require(overlay.corners)
    let points = corners.map { Mercator.project($0, zoom: 17) }
    #expect(abs(points[1].x - points[0].x - 128) < 1e-6)
    #expect(abs(points[3].y - points[0].y - 64) < 1e-6)
    // The anchor (bottom left) lies at the position.
    let at = Mercator.project(Coordinate(latitude: 40, longitude: -74), zoom: 17)
    #expect(abs(points[3].x - at.x) < 1e-6 && abs(points[3].y - at.y) < 1e-6)
    // Turned 90° clockwise about the anchor: the top left corner goes to the anchor's right.
    overlay.bearing = 90
    let turned = try #require(overlay.corners).map { Mercator.project($0, zoom: 17) }
    #expect(abs(turned[0].x - (at.x + 64)) < 1e-6 && abs(turned[0].y - at.y) < 1e-6)
  }

  @Test func aGroundOverlayCoversItsBounds() throws {
    let map = try OverlayTests.map(try Camera(latitude: 0, longitude: 0, zoom: 14))
    let bounds = CoordinateBounds(south: -0.002, west: -0.003, north: 0.002, east: 0.003)
    map.add(GroundOverlay(bounds: bounds, icon: RGBAImage(width: 8, height: 8, fill: OverlayKindTests.red)))
    let image = try map.snapshot().image
    let inside = try #require(map.projection.point(for: Coordinate(latitude: 0.0018, longitude: -0.0028)))
    let outside = try #require(map.projection.point(for: Coordinate(latitude: 0.0024, longitude: -0.0028)))
    #expect(OverlayKindTests.isRed(image.pixel(x: Int(inside.x), y: Int(inside.y))))
    #expect(image.pixel(x: Int(outside.x), y: Int(outside.y)) == (0, 0, 0, 255))
  }

  @Test func overlaysAreHitTestedTopmostFirst() throws {
    let map = try OverlayTests.map(try Camera(latitude: 0, longitude: 0, zoom: 14, bearing: 30, viewingAngle: 40))
    let outer = (0..<4).map { i in
      Coordinate(latitude: [-0.003, -0.003, 0.003, 0.003][i], longitude: [-0.004, 0.004, 0.004, -0.004][i])
    }
    let hole = outer.map { Coordinate(latitude: $0.latitude / 3, longitude: $0.longitude / 3) }
    let polygon = Polygon(path: outer, holes: [hole])
    let circle = Circle(position: Coordinate(latitude: 0.002, longitude: 0.003), radius: 80)
    circle.fillColor = OverlayKindTests.red
    circle.zIndex = 1
    let line = Polyline(path: [
      Coordinate(latitude: -0.002, longitude: -0.004), Coordinate(latitude: -0.002, longitude: 0.004),
    ])
    line.strokeWidth = 6
    line.zIndex = 2
    for overlay in [polygon, circle, line] as [MapOverlay] { map.add(overlay) }
    func hit(_ latitude: Double, _ longitude: Double) throws -> MapOverlay? {
      map.overlay(at: try #require(map.projection.point(for: Coordinate(latitude: latitude, longitude: longitude))))
    }
    #expect(try hit(0.0025, -0.0035) === polygon)
    #expect(try hit(0, 0) == nil)  // the hole
    #expect(try hit(0.002, 0.003) === circle)  // over the polygon, higher zIndex
    #expect(try hit(-0.002, 0) === line)
    #expect(try hit(0.01, 0.01) == nil)
  }

  @Test func aSceneWithoutACameraShowsAllItsContent() throws {
    let json: JSONValue = [
      "size": ["width": 320, "height": 240], "mapType": "none",
      "markers": [["position": [48.85, 2.35]]],
      "polylines": [["path": [[48.80, 2.20], [48.90, 2.45]]]],
      "circles": [["center": [48.86, 2.50], "radius": 2000]],
      "visible": [[48.70, 2.30]],
    ]
    let scene = try Scene.parse(json, path: "/tmp/implicit.json")
    #expect(!scene.placesCamera)
    let map = try Map(scene: scene, gpu: .surfaceless)
    #expect(map.camera.zoom == map.camera.zoom.rounded())
    for coordinate in map.contentCoordinates + scene.visible {
      let point = try #require(map.projection.point(for: coordinate))
      #expect(point.x >= 0 && point.x <= 320 && point.y >= 0 && point.y <= 240, "\(coordinate) at \(point)")
    }
    // One zoom level closer, something falls outside the 24-point padding: the zoom is the
    // highest that fits.
    map.moveCamera(.zoomIn)
    let outside = (map.contentCoordinates + scene.visible).contains { coordinate in
      guard let point = map.projection.point(for: coordinate) else { return true }
      return point.x < 24 || point.x > 296 || point.y < 24 || point.y > 216
    }
    #expect(outside)
  }

  @Test func theFitCanBeExactAndCapped() throws {
    func camera(_ fit: JSONValue) throws -> Camera {
      let json: JSONValue = [
        "size": ["width": 320, "height": 240], "mapType": "none", "visible": [[48.80, 2.20], [48.90, 2.45]], "fit": fit,
      ]
      return try Map(scene: try Scene.parse(json, path: "/tmp/fit.json"), gpu: .surfaceless).camera
    }
    let exact = try camera(["wholeZoom": false, "padding": 0])
    #expect(exact.zoom != exact.zoom.rounded())
    #expect(try camera(["wholeZoom": true]).zoom == (try camera(["wholeZoom": true]).zoom.rounded()))
    #expect(try camera(["wholeZoom": false, "maxZoom": 5]).zoom == 5)
  }

  @Test func badOverlaysGetClearErrors() throws {
    let map = try OverlayTests.map(try Camera(latitude: 0, longitude: 0, zoom: 3))
    let nan = Polyline(path: [Coordinate(latitude: .nan, longitude: 0), Coordinate(latitude: 1, longitude: 1)])
    map.add(nan)
    #expect(throws: OverlayError.self) { try map.snapshot() }
    map.remove(nan)
    let negative = Circle(position: Coordinate(latitude: 0, longitude: 0), radius: -5)
    negative.title = "radius"
    map.add(negative)
    do {
      _ = try map.snapshot()
      Issue.record("a negative radius was drawn")
    } catch let error as OverlayError {
      #expect(error.description.contains("'radius'") && error.description.contains("radius is -5.0"))
    }
    map.remove(negative)
    let huge = Polyline(
      path: Array(repeating: Coordinate(latitude: 0, longitude: 0), count: OverlayValidation.maximumPoints + 1))
    map.add(huge)
    #expect(throws: OverlayError.self) { try map.snapshot() }
    map.remove(huge)
    // An empty path and an overlay without a picture draw nothing and do not fail.
    map.add(Polyline(path: []))
    map.add(GroundOverlay(bounds: CoordinateBounds(south: 0, west: 0, north: 1, east: 1), icon: nil))
    #expect(try map.snapshot().image.isUniform)
  }

  @Test func sceneOverlayFieldsNameTheFieldInErrors() throws {
    func message(_ json: JSONValue) -> String {
      do {
        let scene = try Scene.parse(json, path: "/tmp/bad-overlay.json")
        _ = try Map(scene: scene, gpu: .surfaceless)
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    let camera: JSONValue = ["latitude": 0, "longitude": 0, "zoom": 3]
    #expect(
      message(["camera": camera, "mapType": "none", "circles": [["center": [0, 0], "radius": -1]]]).contains("radius"))
    #expect(
      message([
        "camera": camera, "mapType": "none", "groundOverlays": [["image": "missing.png", "bounds": [0, 0, 1, 1]]],
      ])
      .contains("groundOverlays[0].image: cannot read '/tmp/missing.png'"))
    #expect(message(["camera": camera, "mapType": "none", "polylines": [["path": []]]]) == "no error")
    #expect(
      message(["camera": camera, "mapType": "none", "heatmaps": [["points": [[91, 0]]]]]).contains("heatmaps[0].points")
    )
  }
}
