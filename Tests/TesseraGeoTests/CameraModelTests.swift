import Foundation
import TesseraGeo
import TesseraTestSupport
import Testing

@Suite struct CoordinateBoundsTests {
  @Test func twoCoordinatesTakeTheShorterLongitudeSpan() {
    let across = CoordinateBounds(Coordinate(latitude: 10, longitude: 170), Coordinate(latitude: -5, longitude: -170))
    #expect(across.west == 170 && across.east == -170 && across.crossesAntimeridian)
    #expect(abs(across.longitudeSpan - 20) < 1e-12)
    #expect(across.south == -5 && across.north == 10)
    let plain = CoordinateBounds(Coordinate(latitude: 0, longitude: -20), Coordinate(latitude: 1, longitude: 30))
    #expect(plain.west == -20 && plain.east == 30 && !plain.crossesAntimeridian)
  }

  @Test func containsCountsEdgesAndHandlesTheAntimeridian() {
    let across = CoordinateBounds(south: -10, west: 170, north: 10, east: -170)
    #expect(across.contains(Coordinate(latitude: 0, longitude: 180)))
    #expect(across.contains(Coordinate(latitude: 0, longitude: -175)))
    #expect(across.contains(Coordinate(latitude: 10, longitude: 170)))
    #expect(!across.contains(Coordinate(latitude: 0, longitude: 0)))
    #expect(!across.contains(Coordinate(latitude: 11, longitude: 175)))
  }

  @Test func invalidBoundsBecomeThePointIncluded() {
    let empty = CoordinateBounds()
    #expect(!empty.isValid)
    #expect(!empty.contains(Coordinate(latitude: 0, longitude: 0)))
    let point = empty.including(Coordinate(latitude: 3, longitude: 4))
    #expect(point.isValid && point.south == 3 && point.north == 3 && point.west == 4 && point.east == 4)
    #expect(!CoordinateBounds(south: 5, west: 0, north: 1, east: 2).isValid)
  }

  @Test func includingGrowsOnTheCheaperSide() {
    let bounds = CoordinateBounds(south: 0, west: 170, north: 1, east: 175)
    let east = bounds.including(Coordinate(latitude: 0, longitude: -178))
    #expect(east.west == 170 && east.east == -178)
    let west = bounds.including(Coordinate(latitude: 2, longitude: 160))
    #expect(west.west == 160 && west.east == 175 && west.north == 2)
    let merged = bounds.including(CoordinateBounds(south: -1, west: -179, north: 0.5, east: -170))
    #expect(merged.west == 170 && merged.east == -170 && merged.south == -1)
    #expect(bounds.intersects(CoordinateBounds(south: 0.5, west: 174, north: 3, east: 179)))
    #expect(!bounds.intersects(CoordinateBounds(south: 0, west: 0, north: 1, east: 10)))
  }
}

@Suite struct CameraUpdateTests {
  static func state(
    tilt: Double = 0, bearing: Double = 0, zoom: Double = 14, padding: EdgeInsets = .zero,
    width: Double = 800, height: Double = 600
  ) throws -> MapState {
    MapState(
      camera: try Camera(latitude: 43.7384, longitude: 7.4246, zoom: zoom, bearing: bearing, viewingAngle: tilt),
      viewport: try Viewport(width: width, height: height, padding: padding))
  }

  @Test func zoomUpdatesChangeZoomOnlyAndReclampTilt() throws {
    var state = try CameraUpdateTests.state(tilt: 65, zoom: 16)
    state.move(.zoomIn)
    #expect(state.camera.zoom == 17 && state.camera.viewingAngle == 65)
    state.move(.zoomTo(11))
    #expect(state.camera.zoom == 11 && abs(state.camera.viewingAngle - (30 + 35.0 / 6)) < 1e-12)
    state.move(.zoomBy(-3))
    #expect(state.camera.zoom == 8 && state.camera.viewingAngle == 30)
    state.move(.zoomOut)
    #expect(state.camera.zoom == 7)
    state.move(.zoomTo(99))
    #expect(state.camera.zoom == 22)
  }

  @Test func setTargetKeepsBearingAndTilt() throws {
    var state = try CameraUpdateTests.state(tilt: 40, bearing: 12)
    state.move(.setTarget(Coordinate(latitude: 1, longitude: 2)))
    #expect(
      state.camera.target == Coordinate(latitude: 1, longitude: 2) && state.camera.bearing == 12
        && state.camera.viewingAngle == 40)
    state.move(.setTarget(Coordinate(latitude: 3, longitude: 4), zoom: 9))
    #expect(state.camera.zoom == 9)
  }

  @Test func zoomByAtPointKeepsThatPointsCoordinate() throws {
    var random = SeededRandom(seed: 3)
    for _ in 0..<200 {
      let tilt = random.double(in: 0...65)
      let state = try CameraUpdateTests.state(
        tilt: tilt, bearing: random.double(in: 0...360), zoom: random.double(in: 3...20),
        padding: EdgeInsets(top: random.double(in: 0...80), left: random.double(in: 0...80)))
      let point = ScreenPoint(x: random.double(in: 0...800), y: random.double(in: 200...600))
      let delta = random.double(in: -2...2)
      guard let before = state.projection.coordinate(for: point) else { continue }
      var after = state
      after.move(.zoomBy(delta, atPoint: point))
      guard abs(after.camera.target.latitude) < 84.9, after.camera.zoom > 0, after.camera.zoom < 22 else { continue }
      let moved = try #require(after.projection.point(for: before))
      #expect(abs(moved.x - point.x) < 1e-6 && abs(moved.y - point.y) < 1e-6, "\(state.camera) \(point) \(delta)")
    }
  }

  @Test func scrollByMakesTheOffsetCoordinateTheTarget() throws {
    var random = SeededRandom(seed: 5)
    for _ in 0..<200 {
      let state = try CameraUpdateTests.state(
        tilt: random.double(in: 0...65), bearing: random.double(in: 0...360), zoom: random.double(in: 4...20),
        padding: EdgeInsets(top: 40, left: 10, bottom: 100, right: 0))
      let x = random.double(in: -300...300)
      let y = random.double(in: -200...200)
      let centre = state.viewport.paddedCenter
      let expected = try #require(state.projection.coordinate(for: ScreenPoint(x: centre.x + x, y: centre.y + y)))
      var after = state
      after.move(.scrollBy(x: x, y: y))
      #expect(abs(after.camera.target.latitude - expected.latitude) < 1e-9)
      #expect(abs(Mercator.wrapLongitude(after.camera.target.longitude - expected.longitude)) < 1e-9)
      let atCentre = try #require(after.projection.point(for: expected))
      #expect(abs(atCentre.x - centre.x) < 1e-6 && abs(atCentre.y - centre.y) < 1e-6)
    }
  }

  @Test func scrollingEastAtBearing90MovesTheTargetSouth() throws {
    var state = try CameraUpdateTests.state(bearing: 90)
    let before = state.camera.target
    state.move(.scrollBy(x: 100, y: 0))
    #expect(state.camera.target.latitude < before.latitude)
    #expect(abs(state.camera.target.longitude - before.longitude) < 1e-9)
  }

  @Test func fitBoundsShowsTheCornersInsideThePaddedInsetArea() throws {
    var random = SeededRandom(seed: 11)
    for _ in 0..<300 {
      let padding = EdgeInsets(
        top: random.double(in: 0...60), left: random.double(in: 0...60), bottom: random.double(in: 0...60),
        right: random.double(in: 0...60))
      let state = try CameraUpdateTests.state(tilt: 45, bearing: 77, padding: padding)
      let south = random.double(in: -70...60)
      let west = random.double(in: -180...179)
      let bounds = CoordinateBounds(
        south: south, west: west, north: south + random.double(in: 0.001...20),
        east: west + random.double(in: 0.001...120))
      let fitPadding = random.double(in: 0...80)
      var after = state
      after.move(.fit(bounds, padding: fitPadding))
      #expect(after.camera.bearing == 0 && after.camera.viewingAngle == 0)
      let left = padding.left + fitPadding
      let top = padding.top + fitPadding
      let right = 800 - padding.right - fitPadding
      let bottom = 600 - padding.bottom - fitPadding
      var touches = false
      for corner in [
        bounds.northEast, bounds.southWest, Coordinate(latitude: bounds.north, longitude: bounds.west),
        Coordinate(latitude: bounds.south, longitude: bounds.east),
      ] {
        let point = try #require(after.projection.point(for: corner))
        // The east edge of a span crossing 180 projects to the world copy beside the target.
        let x = point.x
        #expect(
          x >= left - 1e-6 && x <= right + 1e-6 && point.y >= top - 1e-6 && point.y <= bottom + 1e-6,
          "\(bounds) \(point)")
        touches =
          touches || abs(x - left) < 1e-6 || abs(x - right) < 1e-6 || abs(point.y - top) < 1e-6
          || abs(point.y - bottom) < 1e-6
      }
      if after.camera.zoom > 0 && after.camera.zoom < 22 {
        #expect(touches, "the fit is as large as possible: \(bounds)")
      }
    }
  }

  @Test func fitWithNoRoomGoesToMinimumZoomAndInvalidBoundsDoNothing() throws {
    var state = try CameraUpdateTests.state(width: 100, height: 100)
    let before = state.camera
    state.move(.fit(CoordinateBounds()))
    #expect(state.camera == before)
    #expect(state.camera(for: CoordinateBounds(), insets: .zero) == nil)
    state.move(.fit(CoordinateBounds(south: 0, west: 0, north: 1, east: 1), padding: 60))
    #expect(state.camera.zoom == 0)
  }

  @Test func fitAcrossTheAntimeridianCentresOnIt() throws {
    let state = try CameraUpdateTests.state()
    let camera = try #require(
      state.camera(for: CoordinateBounds(south: -10, west: 170, north: 10, east: -170), insets: .zero))
    #expect(abs(abs(camera.target.longitude) - 180) < 1e-9)
    #expect(abs(camera.target.latitude) < 1e-9)
    // The box is 20° wide and (in Mercator, from ±10°) about 20.1° high: the 600-point height limits.
    let north = Mercator.project(Coordinate(latitude: 10, longitude: 0), worldSize: 256).y
    let south = Mercator.project(Coordinate(latitude: -10, longitude: 0), worldSize: 256).y
    let expected = min(log2(800 / (256 * 20.0 / 360)), log2(600 / (south - north)))
    #expect(abs(camera.zoom - expected) < 1e-9)
    #expect(expected == log2(600 / (south - north)))
  }

  @Test func minZoomAboveMaxIsRefusedAndTheCameraReclamped() throws {
    var state = try CameraUpdateTests.state(zoom: 14)
    #expect(throws: GeoError.invalidZoomRange(min: 12, max: 10)) { try state.setMinZoom(12, maxZoom: 10) }
    try state.setMinZoom(15, maxZoom: 18)
    #expect(state.camera.zoom == 15)
    state.move(.zoomTo(20))
    #expect(state.camera.zoom == 18)
  }

  @Test func targetBoundsHoldEveryMove() throws {
    var state = try CameraUpdateTests.state()
    let bounds = CoordinateBounds(south: 43.72, west: 7.40, north: 43.76, east: 7.45)
    state.setCameraTargetBounds(bounds)
    state.move(.setTarget(Coordinate(latitude: 50, longitude: 7.42)))
    #expect(state.camera.target.latitude == 43.76 && state.camera.target.longitude == 7.42)
    state.move(.scrollBy(x: -5000, y: 0))
    #expect(bounds.contains(state.camera.target))
    state.setCameraTargetBounds(nil)
    state.move(.setTarget(Coordinate(latitude: 50, longitude: 7.42)))
    #expect(state.camera.target.latitude == 50)
  }
}

@Suite struct ProjectionTests {
  @Test func visibleRegionIsThePaddedRectanglesCorners() throws {
    let state = try CameraUpdateTests.state(
      tilt: 50, bearing: 20, padding: EdgeInsets(top: 50, left: 0, bottom: 100, right: 30))
    let region = state.projection.visibleRegion
    let nearLeft = try #require(region.nearLeft)
    let point = try #require(state.projection.point(for: nearLeft))
    #expect(abs(point.x - 0) < 1e-6 && abs(point.y - 500) < 1e-6)
    let farRightCoordinate = try #require(region.farRight)
    let farRight = try #require(state.projection.point(for: farRightCoordinate))
    #expect(abs(farRight.x - 770) < 1e-6 && abs(farRight.y - 50) < 1e-6)
    // Tilted: the far edge spans more ground than the near edge (a trapezoid).
    func groundLength(_ a: Coordinate?, _ b: Coordinate?) throws -> Double {
      let p = Mercator.project(try #require(a), zoom: 14)
      let q = Mercator.project(try #require(b), zoom: 14)
      return hypot(q.x - p.x, q.y - p.y)
    }
    #expect(try groundLength(region.farLeft, region.farRight) > 1.5 * groundLength(region.nearLeft, region.nearRight))
    #expect(region.bounds.isValid)
  }

  @Test func containsUsesThePaddedRectangle() throws {
    let state = try CameraUpdateTests.state(padding: EdgeInsets(top: 0, left: 0, bottom: 300, right: 0))
    #expect(state.projection.contains(state.camera.target))
    let below = try #require(state.projection.coordinate(for: ScreenPoint(x: 400, y: 450)))
    #expect(!state.projection.contains(below))
  }

  @Test func pointsForMetersUsesTheGroundScale() throws {
    let state = try CameraUpdateTests.state(zoom: 16)
    let points = state.projection.points(forMeters: 100, at: Coordinate(latitude: 43.7384, longitude: 7.4246))
    #expect(abs(points - 57.943_664_618_790_4) < 1e-9)
    // On a flat camera, 100 m east at the target projects that many points away.
    let east = Coordinate(
      latitude: 43.7384, longitude: 7.4246 + 100 / (111_319.490_793_273_57 * cos(43.7384 * .pi / 180)))
    let point = try #require(state.projection.point(for: east))
    #expect(abs((point.x - 400) - points) < 0.01)
  }
}

@Suite struct CameraAnimationTests {
  @Test func interpolatesAndEndsExactly() throws {
    let start = try Camera(latitude: 0, longitude: 170, zoom: 10, bearing: 350, viewingAngle: 0)
    let end = try Camera(latitude: 10, longitude: -170, zoom: 16, bearing: 20, viewingAngle: 60)
    let animation = try CameraAnimation(from: start, to: end, duration: 2, easing: .linear)
    #expect(animation.camera(at: -1) == start && animation.camera(at: 0) == start)
    #expect(animation.camera(at: 2) == end && animation.camera(at: 5) == end)
    let middle = animation.camera(at: 1)
    #expect(abs(middle.zoom - 13) < 1e-12)
    #expect(abs(middle.bearing - 5) < 1e-9, "bearing turns the short way through north")
    #expect(abs(abs(middle.target.longitude) - 180) < 1e-9, "the target crosses the antimeridian")
    #expect(abs(middle.viewingAngle - 30) < 1e-12)
  }

  @Test func intermediateTiltRespectsTheCapOfTheIntermediateZoom() throws {
    let start = try Camera(latitude: 0, longitude: 0, zoom: 16, viewingAngle: 65)
    let end = try Camera(latitude: 0, longitude: 0, zoom: 4, viewingAngle: 30)
    let animation = try CameraAnimation(from: start, to: end, duration: 1, easing: .linear)
    for time in stride(from: 0.0, through: 1, by: 0.05) {
      let camera = animation.camera(at: time)
      #expect(camera.viewingAngle <= CameraLimits.googleMaxTilt(zoom: camera.zoom) + 1e-9)
    }
  }

  @Test func easeInOutIsSymmetricAndMonotonic() {
    var previous = -1.0
    for step in 0...100 {
      let t = Double(step) / 100
      let y = CameraAnimation.cubicBezier(t, 0.42, 0, 0.58, 1)
      #expect(y >= previous)
      #expect(abs(y + CameraAnimation.cubicBezier(1 - t, 0.42, 0, 0.58, 1) - 1) < 1e-9)
      previous = y
    }
    #expect(CameraAnimation.cubicBezier(0.5, 0.42, 0, 0.58, 1) == 0.5)
  }

  @Test func frameTimesCoverTheDurationAtTheRate() throws {
    let camera = try Camera(latitude: 0, longitude: 0, zoom: 3)
    let animation = try CameraAnimation(from: camera, to: camera, duration: 2)
    let times = animation.frameTimes(framesPerSecond: 10)
    #expect(times.count == 21 && times.first == 0 && times.last == 2)
    #expect(throws: GeoError.self) { try CameraAnimation(from: camera, to: camera, duration: -1) }
  }

  @Test func animatingAnUpdateEndsAtTheUpdatedCamera() throws {
    let state = try CameraUpdateTests.state(zoom: 12)
    let animation = try CameraAnimation(state: state, update: .zoomBy(2))
    #expect(animation.camera(at: animation.duration).zoom == 14)
  }
}
