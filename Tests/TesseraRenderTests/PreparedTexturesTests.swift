import Foundation
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraStyle
import Testing

@testable import Tessera
@testable import TesseraRender

/// A first frame makes its tiles' textures (hillshade slopes) with the tiles, on a worker
/// thread, and the rendering thread uploads them instead of making them again.
@Suite struct PreparedTexturesTests {
  static let camera = try! Camera(latitude: 41.865, longitude: 0.176, zoom: 11.3)

  /// A map drawing the coast DEM tile of ``HillshadeFlatGroundTests`` (no frame drawn yet).
  static func coastMap(folder: String) throws -> Map {
    let map = try Map(
      options: MapOptions(width: 256, height: 192, camera: camera, mapType: .none), gpu: .surfaceless)
    try map.setStyle(try Style.parse(Array(HillshadeFlatGroundTests.style.utf8)), name: "coast", dataRoot: folder)
    return map
  }

  @Test func theTilesPreparationMakesTheSlopeTexture() throws {
    let folder = try HillshadeFlatGroundTests.coastFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let map = try PreparedTexturesTests.coastMap(folder: folder)
    let renderer = try #require(map.styleRenderer)
    let prepared = renderer.prepareTiles(transform: map.state.transform)
    #expect(prepared.textures.count == 1)
    let texture = try #require(prepared.textures.values.first)

    let path = folder + "/dem/10/512/380.png"
    let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    let slopes = HillshadePreparation.prepareWithOccupancy(
      DEMTile(image: image, encoding: .terrarium), neighbours: Array(repeating: nil, count: 8), zoom: 10, maxZoom: 10)
    #expect(texture.width == image.width && texture.height == image.height)
    #expect(texture.pixels == slopes.pixels)
    #expect(texture.occupancy == slopes.occupancy)
  }

  /// A new style over the same DEM (a style set again, traffic turned on) finds the slopes on the
  /// GPU: its first frame's preparation does not make them again.
  @Test func texturesOnTheGPUAreNotMadeAgain() throws {
    let folder = try HillshadeFlatGroundTests.coastFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let map = try PreparedTexturesTests.coastMap(folder: folder)
    let first = try map.snapshot().image
    let cached = map.executor.resources.textureKeys
    try map.setStyle(try Style.parse(Array(HillshadeFlatGroundTests.style.utf8)), name: "coast", dataRoot: folder)
    let renderer = try #require(map.styleRenderer)
    let fresh = renderer.prepareTiles(transform: map.state.transform)
    #expect(fresh.textures.count == 1)
    #expect(fresh.textures.keys.allSatisfy(cached.contains), "the slopes of the first style are on the GPU")
    #expect(renderer.prepareTiles(transform: map.state.transform, cachedTextures: cached).textures.isEmpty)
    #expect(try map.snapshot().image == first)
  }

  @Test func uploadsTakeThePreparedTexelsAndTheFrameIsUnchanged() throws {
    let folder = try HillshadeFlatGroundTests.coastFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let map = try PreparedTexturesTests.coastMap(folder: folder)
    let renderer = try #require(map.styleRenderer)
    let transform = map.state.transform
    let prepared = renderer.prepareTiles(transform: transform)
    let key = try #require(prepared.textures.keys.first)
    let made = try #require(prepared.textures[key])
    // A stand-in whose cells are all blank, unlike the coast's: the cache must hold it.
    let standIn = PreparedTexture(
      width: made.width, height: made.height, pixels: made.pixels,
      occupancy: TextureOccupancy(width: made.width, height: made.height, cellSize: 8) { _, _ in true })
    #expect(standIn.occupancy != made.occupancy)
    var timings = PreparationTimings()
    _ = try renderer.uploadTextures(
      layers: renderer.drawnLayers(zoom: transform.camera.styleZoom).layers, tiles: prepared.tiles,
      resources: map.executor.resources, prepared: [key: standIn], timings: &timings)
    let tookTheStandIn = map.executor.resources.occupancy(key) == standIn.occupancy
    #expect(tookTheStandIn, "the upload made the slopes again instead of taking the prepared ones")
    map.executor.device.releaseContext()

    // The first frame (textures made with the tiles) draws what a frame making them at upload does.
    let first = try PreparedTexturesTests.coastMap(folder: folder)
    let plain = try PreparedTexturesTests.coastMap(folder: folder)
    plain.markWarmedUp()
    let image = try first.snapshot().image
    #expect(image == (try plain.snapshot().image))
    // The hills are shaded (not a plain background).
    let colours = Set(stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0..<$0 + 4] })
    #expect(colours.count > 10)
  }
}
