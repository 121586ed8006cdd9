import Foundation
import TesseraGeo
import TesseraTestSupport
import Testing

@Suite struct CameraTransformTests {
  func transform(
    zoom: Double = 16, bearing: Double = 0, tilt: Double = 0, width: Double = 800, height: Double = 600,
    padding: EdgeInsets = .zero
  ) throws -> CameraTransform {
    CameraTransform(
      camera: try Camera(latitude: 43.7384, longitude: 7.4246, zoom: zoom, bearing: bearing, viewingAngle: tilt),
      viewport: try Viewport(width: width, height: height, padding: padding))
  }

  @Test func targetProjectsToThePaddedCentre() throws {
    let padded = try transform(tilt: 40, padding: EdgeInsets(top: 100, left: 20, bottom: 0, right: 180))
    let point = try #require(padded.point(for: padded.camera.target))
    #expect(abs(point.x - 320) < 1e-9 && abs(point.y - 350) < 1e-9)
  }

  @Test func workedNumbersFromTheFormulas() throws {
    let flat = try transform()
    // At tilt 0 one world point is one screen point.
    let east = try #require(flat.screenPoint(dx: 100, dy: 0))
    #expect(abs(east.x - 500) < 1e-9 && abs(east.y - 300) < 1e-9)
    // Bearing 90: east is up.
    let turned = try transform(bearing: 90)
    let up = try #require(turned.screenPoint(dx: 100, dy: 0))
    #expect(abs(up.x - 400) < 1e-9 && abs(up.y - 200) < 1e-9)
    // Tilt 60: a point 100 points north (v = −100) is at depth D + 100·sin60 and moves up by
    // 100·cos60·D/zc.
    let tilted = try transform(tilt: 60)
    let d = 900.0
    let zc = d + 100 * sin(Double.pi / 3)
    let north = try #require(tilted.screenPoint(dx: 0, dy: -100))
    #expect(abs(north.x - 400) < 1e-9)
    #expect(abs(north.y - (300 - 100 * 0.5 * d / zc)) < 1e-9)
    // Height: 50 points up at the target moves the point up by 50·sin60·D/(D − 50·cos60).
    let high = try #require(tilted.screenPoint(dx: 0, dy: 0, heightPoints: 50))
    #expect(abs(high.y - (300 - 50 * sin(Double.pi / 3) * d / (d - 25))) < 1e-9)
  }

  @Test func unprojectInvertsProjectOverAGridOfCameras() throws {
    var random = SeededRandom(seed: 42)
    for _ in 0..<300 {
      let camera = try Camera(
        latitude: random.double(in: -80...80), longitude: random.double(in: -180...180),
        zoom: random.double(in: 0...22),
        bearing: random.double(in: 0...360), viewingAngle: random.double(in: 0...65))
      let viewport = try Viewport(
        width: random.double(in: 100...2000), height: random.double(in: 100...2000),
        padding: EdgeInsets(top: random.double(in: 0...50), left: random.double(in: 0...50)))
      let transform = CameraTransform(camera: camera, viewport: viewport)
      let screen = ScreenPoint(x: random.double(in: 0...viewport.width), y: random.double(in: 0...viewport.height))
      // A point more than half a world from the target, or off the world's north or south
      // edge, belongs to another world copy or to no coordinate at all: skip it.
      guard let offset = transform.groundOffset(for: screen), abs(offset.dx) < transform.worldSize / 2,
        (0...transform.worldSize).contains(transform.targetWorld.y + offset.dy),
        let coordinate = transform.coordinate(for: screen)
      else { continue }
      let back = try #require(transform.point(for: coordinate), "camera \(camera)")
      #expect(abs(back.x - screen.x) < 1e-6 && abs(back.y - screen.y) < 1e-6, "camera \(camera) point \(screen)")
    }
  }

  @Test func clipMatrixAgreesWithTheFormulas() throws {
    var random = SeededRandom(seed: 9)
    for _ in 0..<200 {
      let tilt = random.double(in: 0...65)
      let view = try transform(
        zoom: random.double(in: 10...22), bearing: random.double(in: 0...360), tilt: tilt, width: 1024, height: 768,
        padding: EdgeInsets(top: 30, left: 0, bottom: 90, right: 60))
      let matrix = view.clipMatrix()
      let dx = random.double(in: -400...400)
      let dy = random.double(in: -400...400)
      let h = random.double(in: 0...200)
      guard let expected = view.screenPoint(dx: dx, dy: dy, heightPoints: h) else { continue }
      let clip = matrix.transform(dx, dy, h)
      #expect(clip.3 > 0)
      let x = (clip.0 / clip.3 + 1) / 2 * 1024
      let y = (1 - clip.1 / clip.3) / 2 * 768
      #expect(abs(x - expected.x) < 1e-6 && abs(y - expected.y) < 1e-6)
    }
  }

  @Test func horizonIsHiddenAtGoogleTiltsAndShownWhenRaised() throws {
    #expect(try !transform(tilt: 65, width: 1024, height: 1024).showsHorizon)
    var limits = CameraLimits()
    try limits.setRaisedTiltCap(85)
    let steep = CameraTransform(
      camera: try Camera(latitude: 0, longitude: 0, zoom: 16, viewingAngle: 85, limits: limits),
      viewport: try Viewport(width: 1024, height: 1024))
    #expect(steep.showsHorizon)
    #expect(steep.coordinate(for: ScreenPoint(x: 512, y: 0)) == nil)
  }
}

@Suite struct TileCoveringTests {
  @Test func topDownCoveringMatchesTheViewAtTheIdealZoom() throws {
    let transform = CameraTransform(
      camera: try Camera(latitude: 0, longitude: 0, zoom: 3), viewport: try Viewport(width: 512, height: 512))
    let tiles = TileCovering().tiles(for: transform)
    // 512 points at zoom 3 are two tiles wide; the target sits on a tile corner: 2×2 tiles.
    #expect(
      Set(tiles.map(\.tile)) == [
        TileID(z: 3, x: 3, y: 3), TileID(z: 3, x: 4, y: 3), TileID(z: 3, x: 3, y: 4), TileID(z: 3, x: 4, y: 4),
      ])
  }

  @Test func maximumTiltAt1024SquareNeedsFewerThan60VectorTiles() throws {
    var raised = CameraLimits()
    try raised.setRaisedTiltCap(85)
    for (tilt, limits) in [(65.0, CameraLimits.default), (85, raised)] {
      for zoom in [10.0, 14.5, 16, 19.3] {
        for bearing in [0.0, 33, 90] {
          let camera = try Camera(
            latitude: 43.7384, longitude: 7.4246, zoom: zoom, bearing: bearing, viewingAngle: tilt, limits: limits)
          let transform = CameraTransform(camera: camera, viewport: try Viewport(width: 1024, height: 1024))
          let vector = TileCovering(tileSize: 512).tiles(for: transform)
          #expect(
            vector.count > 0 && vector.count < 60, "tilt \(tilt) zoom \(zoom) bearing \(bearing): \(vector.count) tiles"
          )
          if camera.viewingAngle >= 60 {
            #expect(Set(vector.map(\.tile.z)).count > 1, "far tiles use lower zooms")
          }
          // Raster tiles of 256 points are a quarter of a vector tile's area, and MapLibre's
          // rounding can pick the next zoom: about four times as many, still bounded.
          let raster = TileCovering(tileSize: 256, rounding: .round).tiles(for: transform)
          #expect(raster.count < 240, "raster: \(raster.count) tiles")
        }
      }
    }
  }

  @Test func flatViewsUseOneZoom() throws {
    let camera = try Camera(latitude: 43.7384, longitude: 7.4246, zoom: 15.7)
    let transform = CameraTransform(camera: camera, viewport: try Viewport(width: 2048, height: 512))
    #expect(Set(TileCovering(tileSize: 512).tiles(for: transform).map(\.tile.z)) == [14])
  }

  @Test func worldCopiesAcrossTheAntimeridian() throws {
    let transform = CameraTransform(
      camera: try Camera(latitude: 0, longitude: 179.9, zoom: 4), viewport: try Viewport(width: 600, height: 300))
    let tiles = TileCovering().tiles(for: transform)
    #expect(tiles.contains { $0.wrap == 1 && $0.tile.x == 0 })
    #expect(tiles.contains { $0.wrap == 0 && $0.tile.x == 15 })
  }

  @Test func idealZoomFollowsTileSizeAndRounding() {
    #expect(TileCovering(tileSize: 512).idealZoom(cameraZoom: 16) == 15)
    #expect(TileCovering(tileSize: 256, rounding: .round).idealZoom(cameraZoom: 15.6) == 16)
    #expect(TileCovering(tileSize: 256).idealZoom(cameraZoom: 15.6) == 15)
  }
}
