import Foundation
import TesseraGL
import TesseraTestSupport
import Testing

@testable import Tessera

/// The same scene gives the same bytes from a fresh map every time, and from a map (or a pool
/// thread) that drew other scenes before. Labels were the exception: glyphs were packed into
/// the atlas as parallel label shaping happened to finish, and a glyph quad's edge read the
/// texel beside it, so with 4× MSAA a tilted map with labels came out slightly different run
/// to run (up to 12 levels on a few dozen pixels).
@Suite(.serialized) struct SameBytesTests {
  static let scenes = ["maptype-normal-3d-msaa", "monaco-3d-z17-msaa", "text-scripts", "info-window-persian-tilted"]

  static func scene(_ name: String) throws -> Scene {
    try Scene.load(path: PackagePaths.path("Tests/TesseraRenderTests/Cases/\(name)/case.json"))
  }

  @Test(arguments: scenes)
  func freshMapsGiveTheSameBytes(_ name: String) throws {
    if name.hasPrefix("monaco"), !SharedData.isAvailable { return }
    let scene = try Self.scene(name)
    let device = try GLDevice(gpu: .surfaceless)
    let first = try Map(scene: scene, device: device).snapshot().image
    for _ in 0..<3 {
      #expect(try Map(scene: scene, device: device).snapshot().image.pixels == first.pixels, "\(name)")
    }
  }

  /// Maps whose programs were linked from stored binaries (``ProgramBinaryCache``) draw the
  /// bytes of maps whose programs were compiled from source.
  @Test(arguments: ["maptype-normal-3d-msaa", "text-scripts"])
  func programsFromStoredBinariesGiveTheSameBytes(_ name: String) throws {
    let scene = try Self.scene(name)
    let folder = FileManager.default.temporaryDirectory.path + "/programs-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cache = try #require(ProgramBinaryCache(path: folder))
    func draw(_ cache: ProgramBinaryCache?) throws -> RGBAImage {
      let device = try GLDevice(gpu: .surfaceless)
      device.programCache = cache
      return try Map(scene: scene, device: device).snapshot().image
    }
    let compiled = try draw(nil)
    #expect(try draw(cache).pixels == compiled.pixels)
    let stored = cache.counts.stored
    #expect(stored >= 1)
    #expect(try draw(cache).pixels == compiled.pixels)
    #expect(cache.counts == .init(loaded: stored, stored: stored))
  }

  @Test func aPoolThreadGivesTheSameBytesWhateverItDrewBefore() throws {
    let scene = try Self.scene("maptype-normal-3d-msaa")
    var other = scene
    other.options.camera = try Camera(latitude: 40.01, longitude: -74.02, zoom: 16.5, bearing: 100, viewingAngle: 40)
    let fresh = try RenderPool(threads: 1, gpu: .surfaceless)
    let alone = try fresh.render(scene).image
    fresh.shutdown()
    let pool = try RenderPool(threads: 1, gpu: .surfaceless)
    defer { pool.shutdown() }
    _ = try pool.render(other)
    #expect(try pool.render(scene).image.pixels == alone.pixels)
  }

  /// What planning keeps between frames at one zoom (``PlanMemo``) never shows: a map that drew
  /// the scene's zoom flat, then rotated and tilted (tiles clipped another way), then flat again,
  /// draws each view as a fresh map does.
  @Test func framesAtOneZoomGiveTheSameBytesWhateverCameOnBefore() throws {
    let scene = try Self.scene("labels-normal-street-tilted-fa")
    let device = try GLDevice(gpu: .surfaceless)
    var flat = scene
    let tilted = scene.options.camera
    flat.options.camera = try Camera(
      latitude: tilted.target.latitude, longitude: tilted.target.longitude, zoom: tilted.zoom, bearing: 0,
      viewingAngle: 0)
    let freshTilted = try Map(scene: scene, device: device).snapshot().image
    let freshFlat = try Map(scene: flat, device: device).snapshot().image
    #expect(freshTilted.pixels != freshFlat.pixels)
    let map = try Map(scene: flat, device: device)
    _ = try map.snapshot()
    map.camera = scene.options.camera
    #expect(try map.snapshot().image.pixels == freshTilted.pixels)
    map.camera = flat.options.camera
    #expect(try map.snapshot().image.pixels == freshFlat.pixels)
  }
}
