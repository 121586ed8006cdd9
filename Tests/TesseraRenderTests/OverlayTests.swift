import Foundation
import TesseraGeo
import TesseraImage
import TesseraTestSupport
import Testing

@testable import Tessera

/// Polylines, polygons and circles drawn over the map, exact to the projection.
@Suite struct OverlayTests {
  static func map(_ camera: Camera, width: Double = 240, height: Double = 180) throws -> Map {
    try Map(
      options: MapOptions(
        width: width, height: height, camera: camera, backgroundColor: .black, mapType: .none),
      gpu: .surfaceless)
  }

  static func isRed(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool { p.r > 120 && p.g < 80 && p.b < 80 }

  @Test(arguments: [0.0, 60.0])
  func aCirclesEdgeLiesOnTheProjectedPointsAtItsRadius(tilt: Double) throws {
    let center = Coordinate(latitude: 60, longitude: 10)
    let map = try OverlayTests.map(try Camera(latitude: 60, longitude: 10, zoom: 13, bearing: 20, viewingAngle: tilt))
    let circle = Circle(position: center, radius: 600)
    circle.strokeColor = Color(r: 255, g: 0, b: 0)
    circle.strokeWidth = 2
    map.add(circle)
    let image = try map.snapshot().image
    var checked = 0
    for point in OverlayGeometry.circle(center: center, radius: 600, count: 24).dropLast() {
      guard let screen = map.projection.point(for: point), screen.x > 2, screen.y > 2,
        screen.x < 238, screen.y < 178
      else { continue }
      // The stroke (2 points wide) is centred on the edge: across it, the red's centroid lies
      // within half a pixel of the projected point.
      let centre = try #require(map.projection.point(for: center))
      var direction = (x: screen.x - centre.x, y: screen.y - centre.y)
      let length = (direction.x * direction.x + direction.y * direction.y).squareRoot()
      direction = (direction.x / length, direction.y / length)
      var (weight, moment) = (0.0, 0.0)
      for step in -16...16 {
        let t = Double(step) / 4
        let x = Int((screen.x + direction.x * t).rounded(.down))
        let y = Int((screen.y + direction.y * t).rounded(.down))
        guard x >= 0, y >= 0, x < image.width, y < image.height else { continue }
        let red = Double(image.pixel(x: x, y: y).r)
        // Offset of that pixel's centre along the direction.
        let along = (Double(x) + 0.5 - screen.x) * direction.x + (Double(y) + 0.5 - screen.y) * direction.y
        weight += red
        moment += red * along
      }
      #expect(weight > 0 && abs(moment / weight) <= 0.5, "tilt \(tilt) at \(screen): \(moment / max(weight, 1))")
      checked += 1
    }
    #expect(checked >= 12)
    // Inside, away from the edge: nothing drawn (the default fill is clear).
    let inside = try #require(map.projection.point(for: center))
    #expect(image.pixel(x: Int(inside.x), y: Int(inside.y)) == (0, 0, 0, 255))
  }

  @Test func polygonHolesAreEmptyAndZIndexOrdersOverlays() throws {
    let map = try OverlayTests.map(try Camera(latitude: 0.05, longitude: 0, zoom: 9))
    let square: [Coordinate] = [
      .init(latitude: -0.1, longitude: -0.1), .init(latitude: -0.1, longitude: 0.1),
      .init(latitude: 0.1, longitude: 0.1), .init(latitude: 0.1, longitude: -0.1),
    ]
    let hole: [Coordinate] = [
      .init(latitude: -0.03, longitude: -0.03), .init(latitude: -0.03, longitude: 0.03),
      .init(latitude: 0.03, longitude: 0.03), .init(latitude: 0.03, longitude: -0.03),
    ]
    let blue = Polygon(path: square, holes: [hole])
    blue.fillColor = Color(r: 0, g: 0, b: 255)
    blue.strokeWidth = 0
    blue.zIndex = 2
    let green = Polygon(path: square.map { Coordinate(latitude: $0.latitude + 0.12, longitude: $0.longitude) })
    green.fillColor = Color(r: 0, g: 255, b: 0)
    green.strokeWidth = 0
    map.add(blue)
    map.add(green)
    var image = try map.snapshot().image
    func pixel(_ latitude: Double, _ longitude: Double) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
      let point = try #require(map.projection.point(for: Coordinate(latitude: latitude, longitude: longitude)))
      try #require(point.x >= 0 && point.y >= 0 && point.x < 240 && point.y < 180, "\(point) in view")
      return image.pixel(x: Int(point.x), y: Int(point.y))
    }
    #expect(try pixel(0, 0) == (0, 0, 0, 255), "the hole is empty")
    #expect(try pixel(-0.07, 0) == (0, 0, 255, 255))
    // Where they overlap the blue polygon (zIndex 2) covers the green one, added later.
    #expect(try pixel(0.06, 0.06) == (0, 0, 255, 255))
    #expect(try pixel(0.17, 0) == (0, 255, 0, 255))
    green.zIndex = 3
    image = try map.snapshot().image
    #expect(try pixel(0.06, 0.06) == (0, 255, 0, 255))
    map.remove(green)
    map.remove(blue)
    #expect(try map.snapshot().image.pixels.allSatisfy { $0 == 0 || $0 == 255 })
  }

  @Test func aGeodesicPolylinePassesThroughTheGreatCircleMidpoint() throws {
    let a = Coordinate(latitude: 50, longitude: -60)
    let b = Coordinate(latitude: 50, longitude: 60)
    let middle = OverlayGeometry.interpolate(a, b, 0.5)
    #expect(abs(middle.longitude) < 1e-9 && middle.latitude > 65)
    let map = try OverlayTests.map(try Camera(latitude: 60, longitude: 0, zoom: 2), width: 400, height: 300)
    let line = Polyline(path: [a, b])
    line.geodesic = true
    line.strokeColor = Color(r: 255, g: 0, b: 0)
    line.strokeWidth = 3
    map.add(line)
    let image = try map.snapshot().image
    let top = try #require(map.projection.point(for: middle))
    try #require(top.x >= 0 && top.y >= 0 && top.x < 400 && top.y < 300)
    #expect(OverlayTests.isRed(image.pixel(x: Int(top.x), y: Int(top.y))))
    // The straight (rhumb) line at latitude 50 is not drawn.
    let rhumb = try #require(map.projection.point(for: Coordinate(latitude: 50, longitude: 0)))
    try #require(rhumb.x >= 0 && rhumb.y >= 0 && rhumb.x < 400 && rhumb.y < 300)
    #expect(!OverlayTests.isRed(image.pixel(x: Int(rhumb.x), y: Int(rhumb.y))))
  }
}
