import Foundation
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraRender
import TesseraTestSupport
import Testing

/// The GPU transform comes from the same camera model as `Projection`: points drawn at known
/// coordinates on llvmpipe have their measured centres where `Projection.point(for:)` says.
@Suite struct ProjectionOnGPUTests {
  struct Setup: Sendable, CustomStringConvertible {
    let tilt: Double
    let bearing: Double
    let zoom: Double
    let scale: Double
    let padding: EdgeInsets
    var description: String { "tilt \(tilt) bearing \(bearing) zoom \(zoom) scale \(scale) padding \(padding)" }
  }

  static let setups: [Setup] = [
    Setup(tilt: 0, bearing: 0, zoom: 16, scale: 1, padding: .zero),
    Setup(tilt: 45, bearing: 30, zoom: 15.3, scale: 1, padding: .zero),
    Setup(tilt: 65, bearing: 200, zoom: 17, scale: 2, padding: EdgeInsets(top: 40, left: 0, bottom: 120, right: 30)),
    Setup(tilt: 20, bearing: 315, zoom: 9.6, scale: 3, padding: EdgeInsets(top: 0, left: 90, bottom: 0, right: 0)),
    Setup(tilt: 60, bearing: 90, zoom: 21.7, scale: 1.5, padding: EdgeInsets(all: 25)),
  ]

  @Test(arguments: setups)
  func pointCentresMatchTheProjection(_ setup: Setup) throws {
    let viewport = try Viewport(width: 320, height: 240, scale: setup.scale, padding: setup.padding)
    let camera = try Camera(
      latitude: 43.7384, longitude: 7.4246, zoom: setup.zoom, bearing: setup.bearing, viewingAngle: setup.tilt)
    let transform = CameraTransform(camera: camera, viewport: viewport)
    let projection = Projection(camera: camera, viewport: viewport)
    // Coordinates under a jittered 4×3 grid of screen points, so they spread over the view.
    var random = SeededRandom(seed: UInt64(setup.zoom * 1000))
    var coordinates: [Coordinate] = []
    for row in 0..<3 {
      for column in 0..<4 {
        let screen = ScreenPoint(
          x: 40 + Double(column) * 80 + random.double(in: -10...10),
          y: 40 + Double(row) * 80 + random.double(in: -10...10))
        if let coordinate = projection.coordinate(for: screen) { coordinates.append(coordinate) }
      }
    }
    #expect(coordinates.count == 12)
    let radius = 4.0
    let layer = PointsLayer(points: coordinates.map { PointsLayer.Point($0, color: .white) }, radius: radius)
    let device = try GLDevice(gpu: .surfaceless)
    let executor = FrameExecutor(device: device)
    let frame = try FrameComposer.compose(
      [layer], transform: transform, background: .black, resources: executor.resources)
    try executor.execute(frame.plan)
    let image = try executor.readPixels()
    for coordinate in coordinates {
      let expected = try #require(projection.point(for: coordinate))
      let centre = try #require(
        ProjectionOnGPUTests.centroid(in: image, near: expected, scale: setup.scale, radius: (radius + 2) * setup.scale)
      )
      let error = hypot(centre.x - expected.x * setup.scale, centre.y - expected.y * setup.scale)
      #expect(
        error < 0.5,
        "\(setup): \(coordinate) drawn at \(centre), expected \(expected) × \(setup.scale) (error \(error) px)")
    }
  }

  /// The brightness-weighted centre (in pixels, pixel centres at +0.5) of the dot near the
  /// expected screen point.
  static func centroid(in image: RGBAImage, near point: ScreenPoint, scale: Double, radius: Double) -> (
    x: Double, y: Double
  )? {
    let cx = point.x * scale
    let cy = point.y * scale
    var sum = 0.0
    var sx = 0.0
    var sy = 0.0
    for y in max(0, Int(cy - radius))...min(image.height - 1, Int(cy + radius)) {
      for x in max(0, Int(cx - radius))...min(image.width - 1, Int(cx + radius)) {
        let weight = Double(image.pixel(x: x, y: y).r)
        sum += weight
        sx += weight * (Double(x) + 0.5)
        sy += weight * (Double(y) + 0.5)
      }
    }
    return sum > 0 ? (sx / sum, sy / sum) : nil
  }
}
