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
