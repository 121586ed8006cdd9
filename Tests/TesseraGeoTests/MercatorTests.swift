import Foundation
import TesseraGeo
import Testing

@Suite struct MercatorTests {
  @Test func worldSizeDoublesPerZoom() {
    #expect(Mercator.worldSize(zoom: 0) == 256)
    #expect(Mercator.worldSize(zoom: 1) == 512)
    #expect(Mercator.worldSize(zoom: 2) == 1024)
  }

  @Test func workedNumbers() {
    // Origin and the world's corners.
    let centre = Mercator.project(Coordinate(latitude: 0, longitude: 0), zoom: 0)
    #expect(centre == WorldPoint(x: 128, y: 128))
    let corner = Mercator.project(Coordinate(latitude: Mercator.maxLatitude, longitude: -180), zoom: 0)
    #expect(abs(corner.x) < 1e-12 && abs(corner.y) < 1e-9)
    // Monaco at zoom 16, computed independently from CAMERA.md's formulas.
    let monaco = Mercator.project(Coordinate(latitude: 43.7384, longitude: 7.4246), zoom: 16)
    #expect(abs(monaco.x - 8_734_619.438_648_889) < 1e-6)
    #expect(abs(monaco.y - 6_117_437.412_061_904) < 1e-6)
    #expect(
      abs(Mercator.pointsPerMeter(latitude: 43.7384, worldSize: Mercator.worldSize(zoom: 16)) - 0.579_436_646_187_904)
        < 1e-12)
  }

  @Test func unprojectInvertsProject() {
    for latitude in stride(from: -85.0, through: 85, by: 8.5) {
      for longitude in stride(from: -180.0, through: 179, by: 17) {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        let back = Mercator.unproject(Mercator.project(coordinate, zoom: 13.7), zoom: 13.7)
        #expect(abs(back.latitude - latitude) < 1e-9 && abs(back.longitude - longitude) < 1e-9)
      }
    }
  }

  @Test(arguments: [(480.0, 120.0), (840, 120), (1200, 120), (180, -180), (-180, -180), (-181, 179), (0, 0)])
  func longitudeWrapsIntoHalfOpenRange(_ input: Double, _ expected: Double) {
    #expect(abs(Mercator.wrapLongitude(input) - expected) < 1e-9)
  }
}

@Suite struct CameraClampingTests {
  @Test func clampsLatitudeAndWrapsLongitudeAndBearing() throws {
    let camera = try Camera(latitude: 100, longitude: 480, zoom: 5, bearing: -30)
    #expect(camera.target == Coordinate(latitude: 85, longitude: 120))
    #expect(camera.bearing == 330)
    #expect(try Camera(latitude: 0, longitude: 0, zoom: 1, bearing: 720).bearing == 0)
  }

  @Test func clampsZoomToTheLimits() throws {
    #expect(try Camera(latitude: 0, longitude: 0, zoom: 30).zoom == 22)
    #expect(try Camera(latitude: 0, longitude: 0, zoom: -3).zoom == 0)
    let limits = try CameraLimits(minZoom: 5, maxZoom: 12)
    #expect(try Camera(latitude: 0, longitude: 0, zoom: 3, limits: limits).zoom == 5)
  }

  @Test(arguments: [(5.0, 30.0), (10, 30), (13, 47.5), (16, 65), (21, 65)])
  func tiltCapFollowsGooglesLineSegments(_ zoom: Double, _ maximum: Double) throws {
    #expect(abs(CameraLimits.googleMaxTilt(zoom: zoom) - maximum) < 1e-12)
    #expect(abs(try Camera(latitude: 0, longitude: 0, zoom: zoom, viewingAngle: 89).viewingAngle - maximum) < 1e-12)
    #expect(try Camera(latitude: 0, longitude: 0, zoom: zoom, viewingAngle: -5).viewingAngle == 0)
  }

  @Test func raisedTiltCapAllowsUpTo85() throws {
    var limits = CameraLimits()
    try limits.setRaisedTiltCap(90)
    #expect(limits.raisedTiltCap == 85)
    #expect(try Camera(latitude: 0, longitude: 0, zoom: 3, viewingAngle: 80, limits: limits).viewingAngle == 80)
  }

  @Test func nonFiniteValuesAreRejected() {
    #expect(throws: GeoError.notFinite(field: "latitude", value: .infinity)) {
      try Camera(latitude: .infinity, longitude: 0, zoom: 1)
    }
    #expect(throws: GeoError.self) { try Camera(latitude: 0, longitude: .nan, zoom: 1) }
    #expect(throws: GeoError.self) { try Camera(latitude: 0, longitude: 0, zoom: .nan) }
    #expect(throws: GeoError.self) { try Camera(latitude: 0, longitude: 0, zoom: 1, viewingAngle: .nan) }
  }

  @Test func zoomRangeRefusesMinAboveMax() {
    var limits = CameraLimits()
    #expect(throws: GeoError.invalidZoomRange(min: 10, max: 5)) { try limits.setZoomRange(min: 10, max: 5) }
  }
}

@Suite struct EncodedPolylineTests {
  @Test func googlesDocumentedExampleDecodesAndRoundTrips() throws {
    let path = try EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    #expect(path.count == 3)
    let expected = [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]
    for (coordinate, (latitude, longitude)) in zip(path, expected) {
      #expect(abs(coordinate.latitude - latitude) < 1e-9 && abs(coordinate.longitude - longitude) < 1e-9)
    }
    #expect(EncodedPolyline.encode(path) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    #expect(try EncodedPolyline.decode("") == [])
  }

  @Test(arguments: ["_p~iF", "_p~iF~ps|U_", "abc\u{1}", "~~~~~~~~~~~~~~~~~~~~"])
  func brokenPathsAreErrorsNamingTheCharacter(text: String) {
    #expect(throws: EncodedPolyline.DecodingError.self) { try EncodedPolyline.decode(text) }
  }
}
