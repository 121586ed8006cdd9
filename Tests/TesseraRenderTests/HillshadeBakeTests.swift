import Foundation
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraStyle
import Testing

@testable import Tessera
@testable import TesseraRender

/// Hillshade bakes each tile's shading into a texture and draws that: the same pixels as
/// shading every pixel (by pixelmatch; filtering colours instead of slopes moves a few levels,
/// more along cliffs),
/// baked once while the light holds and again, in place, when it turns, each time before the
/// frame's own pass.
@Suite struct HillshadeBakeTests {
  static func map(camera: Camera, folder: String, bakes: Bool = true) throws -> Map {
    let map = try Map(options: MapOptions(width: 256, height: 192, camera: camera, mapType: .none), gpu: .surfaceless)
    map.executor.resources.bakesTileShading = bakes
    try map.setStyle(try Style.parse(Array(HillshadeFlatGroundTests.style.utf8)), name: "coast", dataRoot: folder)
    return map
  }

  @Test(arguments: HillshadeFlatGroundTests.cameras)
  func bakedShadingDrawsWhatShadingEveryPixelDraws(camera: Camera) throws {
    let folder = try HillshadeFlatGroundTests.coastFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let baked = try HillshadeBakeTests.map(camera: camera, folder: folder).snapshot().image
    let direct = try HillshadeBakeTests.map(camera: camera, folder: folder, bakes: false).snapshot().image
    let difference = try PixelDiff().compare(baked, direct)
    #expect(difference.differentPixels == 0)
    #expect(difference.largestChannelDifference > 0, "the baked path was taken")
    // Beyond a few levels only along the coast's cliff (a 300-metre wall in one texel), where
    // the slopes turn most between texels.
    var beyond = 0
    for y in 0..<baked.height {
      for x in 0..<baked.width {
        let a = baked.pixel(x: x, y: y)
        let b = direct.pixel(x: x, y: y)
        let largest = [abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b))].max()!
        if largest > 8 { beyond += 1 }
      }
    }
    #expect(Double(beyond) < 0.015 * Double(baked.width * baked.height))
  }

  /// How many passes into cached textures a frame of `map` draws; each is in the frame's
  /// prelude, before any draw into the frame (so the layer's draw never waits for it).
  static func bakes(_ map: Map) throws -> Int {
    let frame = try map.composeFrame()
    try map.executor.execute(frame.plan)
    let bakes = frame.plan.commands.indices.filter { index in
      if case .some(.some(let target)) = frame.plan.commands[index].switchesTo { return target.cachedTexture != nil }
      return false
    }
    let firstOfTheFrame = frame.plan.commands.firstIndex { $0.key.pass != .prelude } ?? frame.plan.commands.count
    #expect(bakes.allSatisfy { $0 < firstOfTheFrame })
    return bakes.count
  }

  @Test func aTileIsBakedOnceWhileTheLightHoldsAndAgainInPlaceWhenItTurns() throws {
    let folder = try HillshadeFlatGroundTests.coastFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let camera = HillshadeFlatGroundTests.cameras[0]
    let map = try HillshadeBakeTests.map(camera: camera, folder: folder)
    #expect(try HillshadeBakeTests.bakes(map) == 1)
    let textures = map.executor.resources.count.textures
    #expect(try HillshadeBakeTests.bakes(map) == 0)
    let first = try map.snapshot().image
    #expect(try map.snapshot().image == first)
    // The light is anchored to the viewport: turning the map turns it.
    for turn in 1...3 {
      map.camera = try Camera(
        latitude: camera.target.latitude, longitude: camera.target.longitude, zoom: camera.zoom,
        bearing: Double(turn) * 20)
      #expect(try HillshadeBakeTests.bakes(map) == 1)
      #expect(map.executor.resources.count.textures == textures)
    }
    // Back to the start: baked again, the same pixels as the first time.
    map.camera = camera
    let again = try map.snapshot().image
    #expect(again == first)
  }
}

/// A bake shades only the cells of a DEM tile that the frame shows and those next to them,
/// with the pixels of a bake of every cell, and bakes again when the view needs other cells.
@Suite struct HillshadeShownCellsTests {
  /// Cameras showing part of the coast tile: straight down, turned, tilted, near its corner.
  static let cameras = [
    try! Camera(latitude: 41.865, longitude: 0.176, zoom: 13),
    try! Camera(latitude: 41.86, longitude: 0.2, zoom: 13.4, bearing: 120),
    try! Camera(latitude: 41.85, longitude: 0.21, zoom: 12.6, bearing: 300, viewingAngle: 50),
    try! Camera(latitude: 41.96, longitude: 0.33, zoom: 13),
  ]

  /// The part of the DEM tile's texture its bake shades (0…1: the area of the rectangles the
  /// prelude draws) and the image of a frame of `map`.
  static func frame(_ map: Map) throws -> (shaded: Double, image: RGBAImage) {
    let frame = try map.composeFrame()
    var shaded = 0.0
    for command in frame.plan.commands where command.key.pass == .prelude {
      guard case .instanced(_, let data) = command.mesh else { continue }
      let rects = data.bytes.withUnsafeBytes { Array($0.bindMemory(to: SIMD4<Float>.self)) }
      #expect(rects.count == data.count)
      shaded += rects.reduce(0) { $0 + Double(($1.z - $1.x) * ($1.w - $1.y)) }
    }
    return (shaded, try map.snapshot().image)
  }

  @Test(arguments: cameras + HillshadeFlatGroundTests.cameras)
  func shownCellsGiveThePixelsOfEveryCell(camera: Camera) throws {
    let folder = try HillshadeFlatGroundTests.coastFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let shown = try HillshadeBakeTests.map(camera: camera, folder: folder)
    let every = try HillshadeBakeTests.map(camera: camera, folder: folder)
    every.executor.resources.bakesShownCellsOnly = false
    let part = try Self.frame(shown)
    let whole = try Self.frame(every)
    let samePixels = part.image == whole.image
    #expect(samePixels)
    #expect(part.shaded > 0)
    #expect(part.shaded <= whole.shaded)
  }

  /// Zoomed in, the bake draws fewer cells than the tile has; moving the camera bakes the
  /// cells it needs then, and every frame is the one a new map draws there.
  @Test func movingTheCameraBakesTheCellsItNeedsThen() throws {
    let folder = try HillshadeFlatGroundTests.coastFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let start = Self.cameras[0]
    let map = try HillshadeBakeTests.map(camera: start, folder: folder)
    let every = try HillshadeBakeTests.map(camera: start, folder: folder)
    every.executor.resources.bakesShownCellsOnly = false
    let part = try Self.frame(map).shaded
    let whole = try Self.frame(every).shaded
    #expect(part > 0 && part < whole / 4, "\(part) of \(whole)")
    for step in 1...4 {
      let camera = try Camera(
        latitude: start.target.latitude - 0.01 * Double(step), longitude: start.target.longitude + 0.03 * Double(step),
        zoom: start.zoom, bearing: 25 * Double(step))
      map.camera = camera
      let moved = try map.snapshot().image
      let fresh = try HillshadeBakeTests.map(camera: camera, folder: folder).snapshot().image
      let samePixels = moved == fresh
      #expect(samePixels, "step \(step)")
    }
  }
}
