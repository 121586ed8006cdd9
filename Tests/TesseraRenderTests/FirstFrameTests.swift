import TesseraGL
import TesseraGeo
import TesseraRender
import Testing

@testable import Tessera

/// The first frame of a style loads and tessellates its tiles on another thread while the
/// rendering thread makes the pipelines it expects the frame to draw with.
@Suite struct FirstFrameTests {
  static let cameras = [
    try! Camera(latitude: 43.7384, longitude: 7.4246, zoom: 16.5, bearing: 30, viewingAngle: 55),
    try! Camera(latitude: 43.7384, longitude: 7.4246, zoom: 14),
  ]

  @Test(arguments: FirstFrameTests.cameras)
  func warmUpChangesNoPixelAndPredictsEveryPipeline(camera: Camera) throws {
    // One device for both maps: a context is current on one thread at a time.
    let device = try GLDevice(gpu: .surfaceless)
    let map = try Map(options: MapOptions(width: 160, height: 120, camera: camera), device: device)
    // The first snapshot takes the prepared path, the second finds everything cached.
    let first = try map.snapshot()
    #expect(first.statistics.bucketsBuilt > 0)
    let second = try map.snapshot()
    #expect(second.statistics.bucketsBuilt == 0)
    #expect(first.image == second.image)
    // A fresh map without the warm-up (another style renderer's first frame is prepared; this
    // one is drawn through the plain path) draws the same pixels.
    let plain = try Map(options: MapOptions(width: 160, height: 120, camera: camera), device: device)
    plain.markWarmedUp()
    #expect(try plain.snapshot().image == first.image)

    let renderer = try #require(map.styleRenderer)
    let transform = map.state.transform
    let frame = try FrameComposer.compose(
      [renderer.frameLayer()], transform: transform, background: .white,
      resources: GPUResourceCache(device: map.device))
    let drawn = Set(frame.plan.commands.compactMap(\.pipeline))
    #expect(!drawn.isEmpty)
    let expected = Set(renderer.expectedPipelines(transform: transform))
    #expect(drawn.isSubset(of: expected), "not predicted: \(drawn.subtracting(expected))")
  }

  /// Unrotated, untilted views clip tiles with scissor rectangles, others with stencil masks.
  @Test func flatViewsClipWithScissorsOthersWithStencilMasks() throws {
    for (camera, flat) in [(FirstFrameTests.cameras[1], true), (FirstFrameTests.cameras[0], false)] {
      let map = try Map(options: MapOptions(width: 160, height: 120, camera: camera), gpu: .surfaceless)
      let renderer = try #require(map.styleRenderer)
      let commands = try FrameComposer.compose(
        [renderer.frameLayer()], transform: map.state.transform, background: .white,
        resources: GPUResourceCache(device: map.device)
      ).plan.commands
      let clipped = commands.filter {
        guard let style = $0.pipeline?.variant as? StylePipeline else { return false }
        return ["fill", "line"].contains(style.program.name)
      }
      #expect(!clipped.isEmpty)
      let clipMasks = commands.filter { ($0.pipeline?.variant as? StylePipeline)?.program.name == "clip" }
      if flat {
        #expect(clipMasks.isEmpty)
        #expect(clipped.allSatisfy { $0.scissor != nil && $0.stencilReference == nil })
        // The rectangles tile the view: together they cover every pixel once.
        let rects = Set(clipped.compactMap(\.scissor))
        #expect(rects.reduce(0) { $0 + Int($1.width) * Int($1.height) } == 160 * 120)
      } else {
        #expect(!clipMasks.isEmpty)
        #expect(clipped.allSatisfy { $0.scissor == nil && $0.stencilReference != nil })
      }
    }
  }

  /// A map adopting a preparation (made before its device, tiles loading meanwhile) draws
  /// what a map made directly draws, also when the camera moved before the first frame.
  @Test func preparedMapsDrawTheSameAsDirectOnes() throws {
    let camera = FirstFrameTests.cameras[0]
    let options = MapOptions(width: 160, height: 120, camera: camera)
    // One device for all the maps: a context is current on one thread at a time.
    let device = try GLDevice(gpu: .surfaceless)
    let direct = try Map(options: options, device: device).snapshot().image
    let prepared = try Map(preparation: MapPreparation(options: options), device: device)
    #expect(try prepared.snapshot().image == direct)

    let moved = try Map(preparation: MapPreparation(options: options), device: device)
    moved.moveCamera(.zoomIn)
    var zoomedOptions = options
    zoomedOptions.camera = moved.camera
    let zoomed = try Map(options: zoomedOptions, device: device).snapshot().image
    #expect(try moved.snapshot().image == zoomed)
  }
}
