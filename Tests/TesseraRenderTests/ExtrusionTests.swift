import Foundation
import Tessera
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraStyle
import TesseraTestSupport
import Testing

@testable import TesseraRender

/// A synthetic tower of known footprint and height: its roof corners are drawn where
/// `Projection.point(for:height:)` puts them.
@Suite struct ExtrusionTests {
  static let height = 120.0
  /// The tower's centre, a little off the camera target.
  static let centre = Coordinate(latitude: 39.9996, longitude: -74.0004)
  /// Footprint corners of a 40 m square.
  static var corners: [Coordinate] {
    let dLat = 20 / 111_320.0
    let dLng = 20 / (111_320.0 * cos(40.0 * .pi / 180))
    return [(-1, -1), (1, -1), (1, 1), (-1, 1)].map { (sx: Double, sy: Double) in
      Coordinate(latitude: centre.latitude + sy * dLat, longitude: centre.longitude + sx * dLng)
    }
  }

  static var style: Style {
    let ring = (corners + [corners[0]]).map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ", ")
    let text = """
      {"version": 8, "sources": {"tower": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[\(ring)]]}}},
       "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "black"}},
                  {"id": "tower", "type": "fill-extrusion", "source": "tower",
                   "paint": {"fill-extrusion-color": "#3c78dc", "fill-extrusion-height": \(height),
                             "fill-extrusion-vertical-gradient": false}}]}
      """
    return try! Style.parse(Array(text.utf8))
  }

  @Test(arguments: [(0.0, 0.0), (30, 35), (45, 200), (60, 0), (60, 130), (65, 300)] as [(Double, Double)])
  func roofCornersLandOnTheProjection(tilt: Double, bearing: Double) throws {
    let camera = try Camera(latitude: 40, longitude: -74, zoom: 16.5, bearing: bearing, viewingAngle: tilt)
    let map = try Map(options: MapOptions(width: 400, height: 300, camera: camera, mapType: .none), gpu: .surfaceless)
    try map.setStyle(ExtrusionTests.style, name: "tower", dataRoot: NSTemporaryDirectory())
    let image = try map.snapshot().image
    let projection = map.projection
    let quad = try ExtrusionTests.corners.map { corner in
      let point = try #require(projection.point(for: corner, height: ExtrusionTests.height))
      return (point.x, point.y)
    }
    // Signed distance of a point to the projected roof's boundary (positive inside).
    let clockwise = ExtrusionTests.signedArea(quad) > 0
    func inside(_ x: Double, _ y: Double) -> Double {
      var smallest = Double.infinity
      for index in 0..<4 {
        let a = quad[index]
        let b = quad[(index + 1) % 4]
        let length = hypot(b.0 - a.0, b.1 - a.1)
        let cross = ((b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0)) / length
        smallest = min(smallest, clockwise ? cross : -cross)
      }
      return smallest
    }
    // The roof's colour: the most common colour well inside the projected roof.
    var counts: [UInt32: Int] = [:]
    for y in 0..<image.height {
      for x in 0..<image.width where inside(Double(x) + 0.5, Double(y) + 0.5) > 1.5 {
        let p = image.pixel(x: x, y: y)
        counts[UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b), default: 0] += 1
      }
    }
    let (colour, interior) = try #require(counts.max { $0.value < $1.value })
    #expect(interior > 30, "tilt \(tilt) bearing \(bearing): roof too small to measure")
    // Every pixel whose centre is on the wrong side of the projected outline lies within a
    // pixel of it: the drawn roof is the projected roof to 1 px.
    var worst = 0.0
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = image.pixel(x: x, y: y)
        let isRoof =
          abs(Int(p.r) - Int(colour >> 16)) <= 2 && abs(Int(p.g) - Int((colour >> 8) & 0xFF)) <= 2
          && abs(Int(p.b) - Int(colour & 0xFF)) <= 2
        let distance = inside(Double(x) + 0.5, Double(y) + 0.5)
        if isRoof != (distance > 0) { worst = max(worst, abs(distance)) }
      }
    }
    #expect(worst <= 1.0, "tilt \(tilt) bearing \(bearing): a roof pixel is \(worst) px off the projected outline")
  }

  /// Twice the signed area of a polygon in screen coordinates.
  static func signedArea(_ points: [(Double, Double)]) -> Double {
    var sum = 0.0
    for index in points.indices {
      let a = points[index]
      let b = points[(index + 1) % points.count]
      sum += a.0 * b.1 - b.0 * a.1
    }
    return sum
  }
}

@Suite struct ExtrusionGeometryTests {
  @Test func wallsAlongTileClipEdgesAreLeftOut() throws {
    // A building cut by the tile's west buffer edge (x = −128 of extent 4096): its cut edge
    // runs along x < 0 and gets no wall; its other three edges do.
    var builder = VectorTileLayerBuilder(name: "building")
    builder.add(
      type: .polygon,
      geometry: [
        [
          TilePoint(x: -128, y: 100), TilePoint(x: 200, y: 100), TilePoint(x: 200, y: 400), TilePoint(x: -128, y: 400),
          TilePoint(x: -128, y: 100),
        ]
      ], properties: [:])
    let tile = VectorTile(layers: [builder.build()])
    let layer = try styleLayer(
      #"{"id": "b", "type": "fill-extrusion", "source": "s", "source-layer": "building", "paint": {"fill-extrusion-height": 10}}"#
    )
    let geometry = FillExtrusionBucketBuilder.build(tile, layer: layer, zoom: 14)
    let floats = geometry.main.vertices
    let walls = stride(from: 0, to: floats.count, by: 7).filter { floats[$0 + 4] == 0 }.count / 4
    #expect(walls == 3)
    // Roof: five ring points (closing point included) with normals straight up.
    let roofs = stride(from: 0, to: floats.count, by: 7).filter { floats[$0 + 4] == 1 }.count
    #expect(roofs == 5)
    // A polygon entirely in the buffer belongs to the neighbour.
    var outside = VectorTileLayerBuilder(name: "building")
    outside.add(
      type: .polygon,
      geometry: [
        [
          TilePoint(x: -120, y: 0), TilePoint(x: -10, y: 0), TilePoint(x: -10, y: 50), TilePoint(x: -120, y: 0),
        ]
      ], properties: [:])
    #expect(
      FillExtrusionBucketBuilder.build(VectorTile(layers: [outside.build()]), layer: layer, zoom: 14).main.isEmpty)
  }

  @Test func translucentDuplicatesAreColouredOnce() throws {
    // Neighbouring tiles both hold a building that crosses their border; at 60% opacity the
    // copies must not blend twice. Two identical features stand in for the two copies.
    func render(copies: Int) throws -> RGBAImage {
      let ring = "[[0.0001, 0.0001], [0.0004, 0.0001], [0.0004, 0.0004], [0.0001, 0.0004], [0.0001, 0.0001]]"
      let features = (0..<copies).map { _ in
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [\#(ring)]}}"#
      }.joined(separator: ", ")
      let text = #"""
        {"version": 8, "sources": {"b": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(features)]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "b", "type": "fill-extrusion", "source": "b",
                     "paint": {"fill-extrusion-color": "#204080", "fill-extrusion-height": 40, "fill-extrusion-opacity": 0.6}}]}
        """#
      let camera = try Camera(latitude: 0.00025, longitude: 0.00025, zoom: 18, bearing: 30, viewingAngle: 50)
      let map = try Map(options: MapOptions(width: 160, height: 120, camera: camera, mapType: .none), gpu: .surfaceless)
      try map.setStyle(try Style.parse(Array(text.utf8)), name: "b", dataRoot: "/")
      return try map.snapshot().image
    }
    let single = try render(copies: 1)
    #expect(try render(copies: 2) == single)
    #expect(single.pixel(x: 80, y: 60) != (255, 255, 255, 255))
  }
}
